// The playground and mock-panel command lines, bundled once per test run for the tests that start them as processes.
// `node --import tsx` loads some three hundred modules through tsx's loader thread: about 2 s of CPU a start, and
// the CLI tests start some thirty. One bundle per command starts in about 1.3 s. The code is the same: tsx and this
// bundle both strip the types with esbuild. The `npm run` tests still start the real command, tsx and all.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Under node_modules/, so the packages the bundles leave out resolve as they do from the sources. */
export const CLI_BUNDLES = join(ROOT, 'node_modules', '.cache', 'bridge-test-cli');

/** The bundle of a command's entry point, by its path in the repository (`playground/cli.ts`). */
export const cliBundle = (script: string) => join(CLI_BUNDLES, `${bundleName(script)}.mjs`);

const bundleName = (script: string) => script.replace(/\.ts$/, '').replaceAll('/', '-');

const ENTRY_POINTS = ['playground/cli.ts', 'mock-panel/cli.ts', 'test/mock-panel/support/stop-twice.ts'];

/**
 * Each module keeps its own `import.meta.url` and `import.meta.dirname`: the simulator reads prelude.lua beside its
 * source, and the mock panel its page and data. In one bundle, they would all name the bundle's file instead.
 */
const sourcePaths: Plugin = {
  name: 'source-paths',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, async ({ path }) => ({
      loader: 'ts',
      contents: (await readFile(path, 'utf8'))
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(path))),
    }));
  },
};

export async function buildCliBundles(): Promise<void> {
  await build({
    entryPoints: ENTRY_POINTS.map((script) => ({ in: join(ROOT, script), out: bundleName(script) })),
    outdir: CLI_BUNDLES,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
    plugins: [sourcePaths],
  });
}
