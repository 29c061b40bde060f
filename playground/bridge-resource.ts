import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The bridge folder the simulated server loads. Without config lines, the repository itself; with some (such as
 * `Config.RefreshIntervalMs = 15000`), a copy in `into` whose config.lua ends with them, as an owner would edit it,
 * with a copy of the built dist/: the optional modules (dist/redis.cjs, dist/metrics.cjs, dist/integrations.cjs) are
 * required from it, and FXServer's Node sandbox (as the simulator's) reads nothing outside the resource's folder, a
 * link's target included.
 */
export function bridgeResource(repoRoot: string, into: string, configLines: readonly string[]): string {
  if (configLines.length === 0) return repoRoot;
  const dir = join(into, 'bridge');
  mkdirSync(dir, { recursive: true });
  cpSync(join(repoRoot, 'fxmanifest.lua'), join(dir, 'fxmanifest.lua'));
  const shipped = readFileSync(join(repoRoot, 'config.lua'), 'utf8');
  writeFileSync(join(dir, 'config.lua'), `${shipped}\n-- set by the playground\n${configLines.join('\n')}\n`);
  cpSync(join(repoRoot, 'dist'), join(dir, 'dist'), { recursive: true });
  return dir;
}
