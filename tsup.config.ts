import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'esbuild';
import { defineConfig, type Options } from 'tsup';

const require = createRequire(import.meta.url);

/**
 * rxjs's `exports` lists its CommonJS build under `node` before its ES module build under `es2015`, and esbuild always
 * sets the `node` condition on platform 'node', so no `conditions` or `mainFields` setting reaches the ES modules:
 * esbuild then bundles the whole CommonJS library, which it cannot tree-shake. This resolves every rxjs entry to the
 * file rxjs itself names for `es2015`, so only the operators the bridge uses are bundled.
 */
function rxjsEsModules(): Plugin {
  const packageJson = require.resolve('rxjs/package.json');
  const { exports } = JSON.parse(readFileSync(packageJson, 'utf8')) as {
    exports: Record<string, { es2015?: string } | string>;
  };
  return {
    name: 'rxjs-es-modules',
    setup(build) {
      build.onResolve({ filter: /^rxjs(\/[\w-]+)?$/ }, ({ path }) => {
        const entry = exports[`.${path.slice('rxjs'.length)}`];
        const es2015 = typeof entry === 'object' ? entry.es2015 : undefined;
        return es2015 ? { path: join(dirname(packageJson), es2015) } : undefined;
      });
    },
  };
}

// FXServer loads each bundle as a classic script whose global `exports` is the export proxy,
// so both are IIFEs that assign nothing to `exports`/`module`, with every dependency inlined.
// FXServer parses the server bundle at every resource start, so all are minified, and what only some servers turn on
// is left out of it (the optional modules below): dist/server.js stays within its 250 KB budget
// (test/build/bundle-size.test.ts; `npm run bundle-report` says what each file is made of). Names are kept so errors and
// stack traces still say which function and class they come from, and each bundle has its source map beside it
// (`dist/server.js.map`, `dist/client.js.map`) to map a minified line and column back to the source.
const bundle: Options = {
  outDir: 'dist',
  format: 'iife',
  noExternal: [/.*/],
  clean: false,
  minify: true,
  keepNames: true,
  sourcemap: true,
  esbuildPlugins: [rxjsEsModules()],
  outExtension: () => ({ js: '.js' }),
};

/**
 * An optional module: a part of the server that only some servers turn on, as a CommonJS module that dist/server.js
 * loads with FXServer's `require` only when its feature is on (server/kernel/optional-module.ts says
 * how FXServer resolves it, and what may cross between the two: each file has its own copy of rxjs and zod). Not named
 * in fxmanifest.lua: it is no script of its own. Keeping these out is what keeps dist/server.js within its budget.
 *
 * Named `.cjs`: FXServer's `require` is Node's, and Node reads a `.js` file as an ES module when the nearest
 * package.json says `"type": "module"`, as the checkout's does (then the file exports nothing). A `.cjs` file is
 * CommonJS whatever package.json lies above it, in the checkout, in package/bridge or in an owner's folders.
 */
const optionalModule = (name: string, entry: string): Options => ({
  ...bundle,
  entry: { [name]: entry },
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  tsconfig: 'server/tsconfig.json',
  outExtension: () => ({ js: '.cjs' }),
  // A checkout built before the modules were `.cjs` keeps its old `.js` copies, which nothing loads any more.
  onSuccess: async () => {
    for (const old of [`${name}.js`, `${name}.js.map`]) rmSync(join('dist', old), { force: true });
  },
});

export default defineConfig([
  {
    ...bundle,
    entry: { server: 'server/main.ts' },
    platform: 'node',
    target: 'node22',
    tsconfig: 'server/tsconfig.json',
  },
  // dist/redis.cjs: the community of servers (BRIDGE_REDIS_URL) with ioredis, when the convar is set.
  optionalModule('redis', 'server/community/community-entry.ts'),
  // dist/metrics.cjs: the Prometheus metrics endpoint, with Config.Metrics.
  optionalModule('metrics', 'server/metrics/metrics-entry.ts'),
  // dist/integrations.cjs: the job framework and rcore_police integrations, with Config.Integrations.
  optionalModule('integrations', 'server/integrations/integrations-entry.ts'),
  {
    ...bundle,
    entry: { client: 'client/main.ts' },
    platform: 'browser',
    target: 'es2020',
    tsconfig: 'client/tsconfig.json',
  },
  {
    // types/index.d.ts, for resources written in TypeScript: one self-contained declaration file (no imports, doc
    // comments kept) bundled from the types the bridge itself uses, so it cannot say anything the bridge does not.
    entry: { index: 'shared/public-types.ts' },
    outDir: 'types',
    format: 'esm',
    clean: false,
    tsconfig: 'tsconfig.json',
    dts: {
      only: true,
      banner: `// Built by \`npm run build\` from shared/public-types.ts: change the source, not this file.
// Types of the bridge's exports, events and state bag, for resources written in TypeScript. Self-contained (no
// imports): copy it, or point a tsconfig path at it. How: types/README.md.`,
    },
  },
]);
