// `npm run deps` fails on an import cycle: checked here on cycles planted in a scratch folder, with the repository's
// own dependency-cruiser config, so a config that lets cycles through fails this test.
import { describe, expect, it } from 'vitest';
import { scratchCruiser } from './support/cruise-scratch.js';

const cruise = scratchCruiser('import-cycles-', 'err');

describe('the import cycle check (npm run deps)', { timeout: 60_000 }, () => {
  it('passes code without a cycle', async () => {
    const { status, output } = await cruise({
      'server/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
      'server/b.ts': 'export const b = 1;\n',
    });
    expect(output).toContain('no dependency violations found');
    expect(status).toBe(0);
  });

  it('fails on a cycle, a cycle of type-only imports too, and names its modules', async () => {
    const { status, output } = await cruise({
      'server/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
      'server/b.ts': "import type { C } from './c.js';\nexport const b: C = 1;\n",
      'server/c.ts': "import type { a } from './a.js';\nexport type C = ReturnType<typeof a> | 1;\n",
    });
    expect(status).not.toBe(0);
    expect(output).toContain('no-circular');
    expect(output).toMatch(/server\/a\.ts[\s\S]*server\/b\.ts[\s\S]*server\/c\.ts/);
  });

  it('lets no cycle through, not even the outbox ↔ kept-outbox-records pair it once excepted', async () => {
    const { status, output } = await cruise({
      'server/duty/outbox.ts': "import { kept } from './kept-outbox-records.js';\nexport const outbox = () => kept;\n",
      'server/duty/kept-outbox-records.ts':
        "import type { outbox } from './outbox.js';\nexport const kept = 1;\nexport type O = typeof outbox;\n",
    });
    expect(status).not.toBe(0);
    expect(output).toContain('server/duty/kept-outbox-records.ts');
  });
});
