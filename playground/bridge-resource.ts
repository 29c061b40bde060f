import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The bridge folder the simulated server loads. Without config lines, the repository itself; with some (such as
 * `Config.RefreshIntervalMs = 15000`), a copy in `into` whose config.lua ends with them, as an owner would edit it,
 * the built dist/ linked rather than copied, or copied with `copyDist`: a bridge with BRIDGE_REDIS_URL requires
 * dist/redis.js, and FXServer's Node sandbox (as the simulator's) reads nothing outside the resource's folder.
 */
export function bridgeResource(
  repoRoot: string,
  into: string,
  configLines: readonly string[],
  { copyDist = false } = {},
): string {
  if (configLines.length === 0) return repoRoot;
  const dir = join(into, 'bridge');
  mkdirSync(dir, { recursive: true });
  cpSync(join(repoRoot, 'fxmanifest.lua'), join(dir, 'fxmanifest.lua'));
  const shipped = readFileSync(join(repoRoot, 'config.lua'), 'utf8');
  writeFileSync(join(dir, 'config.lua'), `${shipped}\n-- set by the playground\n${configLines.join('\n')}\n`);
  if (copyDist) cpSync(join(repoRoot, 'dist'), join(dir, 'dist'), { recursive: true });
  else symlinkSync(join(repoRoot, 'dist'), join(dir, 'dist'), 'dir');
  return dir;
}
