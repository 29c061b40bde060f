// `npm run deps` enforces the slices' layers (.dependency-cruiser.cjs): checked here on breaches planted in a scratch
// folder with the repository's own config, so a config that lets a breach through fails this test.
import { describe, expect, it } from 'vitest';
import { scratchCruiser } from './support/cruise-scratch.js';

const cruise = scratchCruiser('layers-', 'err-long');

const kernel = {
  'server/kernel/index.ts': "export * from './log/logger.js';\n",
  'server/kernel/log.ts': 'export const log = (line: string) => line;\n',
};

describe('the layer rules (npm run deps)', { timeout: 60_000 }, () => {
  it('passes a slice that imports a lower slice through its index.ts', async () => {
    const { status, output } = await cruise({
      ...kernel,
      'server/duty/duty.ts': "import { log } from '../kernel/index.js';\nexport const duty = () => log('on');\n",
    });
    expect(output).toContain('no dependency violations found');
    expect(status).toBe(0);
  });

  it('fails on an import past the index.ts, and says to use it', async () => {
    const { status, output } = await cruise({
      ...kernel,
      'server/duty/duty.ts': "import { log } from '../kernel/log.js';\nexport const duty = () => log('on');\n",
    });
    expect(status).not.toBe(0);
    expect(output).toContain('slice-through-index: server/duty/duty.ts → server/kernel/log.ts');
    expect(output).toContain('import its index.ts');
  });

  it('fails on an import up the slices, a type-only one too', async () => {
    const { status, output } = await cruise({
      'server/duty/index.ts': 'export type Duty = { on: boolean };\n',
      'server/kernel/index.ts':
        "import type { Duty } from '../duty/index.js';\nexport const off: Duty = { on: false };\n",
    });
    expect(status).not.toBe(0);
    expect(output).toContain('slice-direction-kernel: server/kernel/index.ts → server/duty/index.ts');
    expect(output).toContain('server/kernel/ sits below');
  });

  it('fails when decide.ts imports a library, a Node module or a value from another slice', async () => {
    const { status, output } = await cruise({
      ...kernel,
      'server/duty/decide.ts': [
        "import { Subject } from 'rxjs';",
        "import { performance } from 'node:perf_hooks';",
        "import { log } from '../kernel/index.js';",
        'export const decide = () => [new Subject(), performance.now(), log("x")];',
        '',
      ].join('\n'),
    });
    expect(status).not.toBe(0);
    expect(output).toMatch(/decide-is-pure: server\/duty\/decide\.ts → rxjs/);
    expect(output).toMatch(/decide-is-pure: server\/duty\/decide\.ts → perf_hooks/);
    expect(output).toContain('decide-imports-types-or-its-model: server/duty/decide.ts → server/kernel/index.ts');
  });

  it('lets decide.ts take types from another slice', async () => {
    const { status, output } = await cruise({
      'server/kernel/index.ts': 'export type Line = string;\n',
      'server/duty/decide.ts':
        "import type { Line } from '../kernel/index.js';\nexport const decide = (l: Line) => l;\n",
    });
    expect(output).toContain('no dependency violations found');
    expect(status).toBe(0);
  });
});
