import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The bridge folder the simulated server loads. Without settings, the repository itself; with some, a copy in `into`
 * whose config.lua ends with them (as an owner would edit it), the built dist/ linked rather than copied.
 */
export function bridgeResource(repoRoot: string, into: string, config: { refreshIntervalMs?: number }): string {
  if (config.refreshIntervalMs === undefined) return repoRoot;
  const dir = join(into, 'bridge');
  mkdirSync(dir, { recursive: true });
  cpSync(join(repoRoot, 'fxmanifest.lua'), join(dir, 'fxmanifest.lua'));
  const shipped = readFileSync(join(repoRoot, 'config.lua'), 'utf8');
  const lines = [`-- npm start -- --refresh-interval`, `Config.RefreshIntervalMs = ${config.refreshIntervalMs}`];
  writeFileSync(join(dir, 'config.lua'), `${shipped}\n${lines.join('\n')}\n`);
  symlinkSync(join(repoRoot, 'dist'), join(dir, 'dist'), 'dir');
  return dir;
}
