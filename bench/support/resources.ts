import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'tsup';

export const REPO_ROOT = join(import.meta.dirname, '..', '..');

export interface BenchResources {
  /** The bridge as shipped: fxmanifest.lua, config.lua and a fresh dist/. */
  bridge: string;
  /** The same resource with the naive baseline's server bundle in place of the bridge's. */
  naive: string;
  /** A copy of the bridge with lines appended to config.lua. */
  bridgeWith(configLines: string): string;
  remove(): void;
}

// config: false, or tsup merges these options into each build of tsup.config.ts, the declaration build too.
const quiet = {
  config: false,
  silent: true,
  format: 'iife' as const,
  noExternal: [/.*/],
  clean: false,
  sourcemap: false,
};

/** Builds both server bundles and lays out one resource folder (named `bridge`) for each. */
export async function prepareResources(): Promise<BenchResources> {
  const root = mkdtempSync(join(tmpdir(), 'bridge-bench-'));
  // The repository's own build (tsup.config.ts): the bridge exactly as a server would load it.
  await build({ silent: true });
  const layout = (name: string, serverBundle?: string, extraConfig = '') => {
    const dir = join(root, name, 'bridge');
    mkdirSync(join(dir, 'dist'), { recursive: true });
    cpSync(join(REPO_ROOT, 'fxmanifest.lua'), join(dir, 'fxmanifest.lua'));
    writeFileSync(join(dir, 'config.lua'), `${readFileSync(join(REPO_ROOT, 'config.lua'), 'utf8')}\n${extraConfig}\n`);
    cpSync(join(REPO_ROOT, 'dist', 'client.js'), join(dir, 'dist', 'client.js'));
    cpSync(serverBundle ?? join(REPO_ROOT, 'dist', 'server.js'), join(dir, 'dist', 'server.js'));
    // The community's module, loaded only when BRIDGE_REDIS_URL is set (the cluster storm sets it).
    if (!serverBundle) cpSync(join(REPO_ROOT, 'dist', 'redis.cjs'), join(dir, 'dist', 'redis.cjs'));
    return dir;
  };
  const naiveBundle = await buildNaiveBundle(root);
  let copies = 0;
  return {
    bridge: layout('bridge'),
    naive: layout('naive', naiveBundle),
    bridgeWith: (configLines) => layout(`bridge-${++copies}`, undefined, configLines),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Bundles the naive baseline's server script into `<root>/naive-build/server.js`; returns its path. */
export async function buildNaiveBundle(root: string): Promise<string> {
  // The entry is written here rather than kept in bench/: it imports the FiveM adapter, whose globals only the
  // server's tsconfig knows.
  const naiveEntry = join(root, 'naive-main.ts');
  writeFileSync(
    naiveEntry,
    [
      `import { createServerPort } from ${JSON.stringify(join(REPO_ROOT, 'server', 'fivem', 'server-adapter.ts'))};`,
      `import { startNaiveBridge } from ${JSON.stringify(join(REPO_ROOT, 'bench', 'naive', 'naive-bridge.ts'))};`,
      'let stop = () => {};',
      'const port = createServerPort(() => stop());',
      'const naive = startNaiveBridge(port, {',
      '  now: () => performance.timeOrigin + performance.now(),',
      '  wallNow: () => Date.now(),',
      '  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),',
      '  random: () => Math.random(),',
      '});',
      'stop = () => naive.stop();',
    ].join('\n'),
  );
  const outDir = join(root, 'naive-build');
  await build({
    ...quiet,
    entry: { server: naiveEntry },
    outDir,
    platform: 'node',
    target: 'node22',
    tsconfig: join(REPO_ROOT, 'server', 'tsconfig.json'),
    outExtension: () => ({ js: '.js' }),
  });
  return join(outDir, 'server.js');
}
