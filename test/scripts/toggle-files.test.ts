import { describe, expect, it } from 'vitest';
import { toggleFiles } from '../../scripts/toggle-files.js';

// The figure issue 33 asks for: the files one duty toggle runs. The test holds that the measure sees the toggle's
// own path through the built bundle, mapped back to the sources, and nothing that only starting the bridge runs.
describe('npm run toggle-files', () => {
  it('lists the files one toggle runs: duty’s decide and outbox, the panel client, and not the start-up', async () => {
    const files = await toggleFiles();
    expect([...files.keys()]).toEqual(
      expect.arrayContaining([
        'server/duty/decide.ts',
        'server/duty/outbox.ts',
        'server/panel/panel-client.ts',
        'server/edge/server-exports.ts',
      ]),
    );
    expect(files.get('server/duty/decide.ts')?.size).toBeGreaterThan(1);
    for (const file of files.keys()) expect(file).toMatch(/^(server|shared)\//);
    // The start-up check runs once at start, never in a toggle.
    expect(files.has('server/panel/start-up.ts')).toBe(false);
  }, 60_000);
});
