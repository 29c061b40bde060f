import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../server/log/logger.js';
import { type LoadModule, startOptionalModule } from '../../../server/optional-modules/load-optional-module.js';

const MODULE = { path: './dist/part.js', start: 'startPart', without: 'The part stays off.' };

function start(load: LoadModule | undefined) {
  const lines: string[] = [];
  const logger = createLogger({ print: (line) => lines.push(line) });
  const started = startOptionalModule<(options: { n: number }) => string>(
    MODULE,
    { wanted: 'Config.Part is on', load, logger },
    { n: 2 },
  );
  return { started, lines };
}

describe('an optional module', () => {
  it('is loaded from its path and started with the options, saying nothing', () => {
    const asked: string[] = [];
    const { started, lines } = start((path) => {
      asked.push(path);
      return { startPart: ({ n }: { n: number }) => `started with ${n}` };
    });
    expect(asked).toEqual(['./dist/part.js']);
    expect(started).toBe('started with 2');
    expect(lines).toEqual([]);
  });

  it.each<[string, LoadModule | undefined, string]>([
    ['a runtime without require', undefined, 'could not be loaded (this runtime has no require)'],
    [
      'a file that cannot be loaded (the first line of why)',
      () => {
        throw new Error("Cannot find module './dist/part.js'\nRequire stack:\n- /srv/bridge/dummy.js");
      },
      "could not be loaded (Cannot find module './dist/part.js')",
    ],
    ['a file without the start function', () => ({ start: () => 'x' }), "is not the bridge's: it has no startPart()"],
    ['a file that exports nothing', () => undefined, "is not the bridge's: it has no startPart()"],
    [
      'a start function that throws',
      () => ({
        startPart: () => {
          throw new TypeError('Cannot read properties of undefined');
        },
      }),
      'failed as it started (Cannot read properties of undefined)',
    ],
  ])('%s: one ERROR naming what wanted it, the file and what is off; nothing started', (_case, load, what) => {
    const { started, lines } = start(load);
    expect(started).toBeUndefined();
    expect(lines).toEqual([
      `ERROR: Config.Part is on but ./dist/part.js ${what}; reinstall the resource. The part stays off.`,
    ]);
  });
});
