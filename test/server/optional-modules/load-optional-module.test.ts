import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../server/kernel/log.js';
import { type LoadModule, startOptionalModule } from '../../../server/kernel/optional-module.js';

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

describe("an optional module that loads empty, through the require FXServer makes (Node's, at <resource>/dummy.js)", () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  /** A resource folder with these files, and FXServer's require of it. */
  function resource(files: Record<string, string>): { dir: string; load: LoadModule } {
    root = mkdtempSync(join(tmpdir(), 'bridge-optional-'));
    const dir = join(root, 'bridge');
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), content);
    }
    return { dir, load: createRequire(join(dir, 'dummy.js')) };
  }

  const COMMONJS = "module.exports = { startPart: () => 'started' };";

  it('read as an ES module because of a package.json "type": the ERROR names that package.json and what to do', () => {
    const { dir, load } = resource({ 'package.json': '{ "type": "module" }', 'dist/part.js': COMMONJS });
    const { started, lines } = start(load);
    expect(started).toBeUndefined();
    expect(lines).toEqual([
      `ERROR: Config.Part is on but ./dist/part.js was read as an ES module, not CommonJS: ${join(dir, 'package.json')} says "type": "module" (FXServer's require is Node's); rebuild with npm run build, whose optional modules are .cjs files, or reinstall the resource. The part stays off.`,
    ]);
  });

  it('a file of 0 bytes (a copy cut to nothing): the ERROR says the file is empty', () => {
    const { load } = resource({ 'dist/part.js': '' });
    expect(start(load).lines).toEqual([
      'ERROR: Config.Part is on but ./dist/part.js is empty (0 bytes); reinstall the resource. The part stays off.',
    ]);
  });

  it('a CommonJS file that exports nothing: the ERROR says so', () => {
    const { load } = resource({ 'dist/part.js': 'const unused = 1;' });
    expect(start(load).lines).toEqual([
      'ERROR: Config.Part is on but ./dist/part.js exports nothing; reinstall the resource. The part stays off.',
    ]);
  });
});
