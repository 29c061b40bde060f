// Runs the repository's own dependency-cruiser config on files planted in a scratch folder, so a test shows that
// `npm run deps` fails on a breach: a config that lets the breach through fails the test.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');

/** A cruise of planted files; the scratch folders are removed after each test of the calling file. */
export function scratchCruiser(prefix: string, outputType: 'err' | 'err-long') {
  const scratch: string[] = [];
  afterEach(() => {
    for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    scratch.push(dir);
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    const result = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs'),
        ...['--config', join(root, '.dependency-cruiser.cjs'), '--output-type', outputType, 'server'],
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  };
}
