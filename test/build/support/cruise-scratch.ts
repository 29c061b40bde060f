// Runs the repository's own dependency-cruiser config on files planted in a scratch folder, so a test shows that
// `npm run deps` fails on a breach: a config that lets the breach through fails the test.
// The cruise runs in this process, through dependency-cruiser's API: a process per cruise cost about 1.5 s of CPU to
// start Node and load dependency-cruiser and TypeScript again. The CLI (`depcruise`) is a thin shell over the same
// `cruise`: node_modules/dependency-cruiser/src/cli/index.mjs loads the config, reads the tsconfig with
// config-utl/extract-ts-config.mjs and calls src/main/cruise.mjs, the function the package exports (v17.4.3).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterEach } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');

/** The repository's config and the tsconfig it names, read once per file as the CLI reads them once per run. */
async function repositoryConfig() {
  const options = await extractDepcruiseOptions(join(root, '.dependency-cruiser.cjs'));
  const tsConfigFile = options.tsConfig?.fileName;
  return { options, tsConfig: tsConfigFile === undefined ? undefined : extractTSConfig(tsConfigFile) };
}

/** A cruise of planted files; the scratch folders are removed after each test of the calling file. */
export function scratchCruiser(prefix: string, outputType: 'err' | 'err-long') {
  const scratch: string[] = [];
  afterEach(() => {
    for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  let config: ReturnType<typeof repositoryConfig> | undefined;
  return async (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    scratch.push(dir);
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    config ??= repositoryConfig();
    const { options, tsConfig } = await config;
    // baseDir, not process.chdir: the files of a vitest worker share its process and its working directory.
    const result = await cruise(['server'], { ...options, outputType, baseDir: dir }, {}, { tsConfig });
    return { status: result.exitCode, output: String(result.output) };
  };
}
