// The scenario child as one ES module, built once per bench run. Started through tsx, each child spent about 1.5 s
// of CPU resolving and transforming its ~200 modules through tsx's loader thread before running anything; from one
// bundle it starts in a fraction of that. Packages stay external, loaded from node_modules as in the tests. Each
// source keeps its own import.meta.url, so what a module reads beside itself (prelude.lua, createRequire) is
// found as before.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'tsup';
import { REPO_ROOT } from './resources.js';

type EsbuildPlugin = NonNullable<Parameters<typeof build>[0]['esbuildPlugins']>[number];

const ownImportMeta: EsbuildPlugin = {
  name: 'own-import-meta',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.[cm]?ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const values = {
        url: pathToFileURL(args.path).href,
        filename: args.path,
        dirname: join(args.path, '..'),
      };
      return {
        contents: source.replace(/import\.meta\.(url|filename|dirname)\b/g, (_, key: keyof typeof values) =>
          JSON.stringify(values[key]),
        ),
        loader: 'ts',
      };
    });
  },
};

/** Bundles bench/support/scenario-child.ts into the repository's .tmp/ (so packages resolve); returns its path. */
export async function buildScenarioChild(): Promise<string> {
  // Inside the repository, so the bundle's package imports resolve through its node_modules.
  const outDir = join(REPO_ROOT, '.tmp', 'bench-child');
  await build({
    config: false,
    silent: true,
    entry: { 'scenario-child': join(REPO_ROOT, 'bench', 'support', 'scenario-child.ts') },
    outDir,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: join(REPO_ROOT, 'tsconfig.json'),
    clean: false,
    sourcemap: false,
    splitting: false,
    esbuildPlugins: [ownImportMeta],
    esbuildOptions: (options) => {
      options.packages = 'external';
    },
    outExtension: () => ({ js: '.mjs' }),
  });
  return join(outDir, 'scenario-child.mjs');
}
