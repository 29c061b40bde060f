import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../e2e/support/world.js';

export const TS_DUTY_HUD = join(REPO_ROOT, 'examples', 'ts_duty_hud');

/**
 * The TS example as a server would hold it: its manifest and web page, and dist/ built by its own build.js.
 * Built into a temporary folder, so the tests never write into examples/.
 */
export function buildTsDutyHud(): { dir: string; remove: () => void } {
  const parent = mkdtempSync(join(tmpdir(), 'ts-duty-hud-'));
  const dir = join(parent, 'ts_duty_hud');
  execFileSync(process.execPath, [join(TS_DUTY_HUD, 'build.js'), join(dir, 'dist')], { stdio: 'pipe' });
  cpSync(join(TS_DUTY_HUD, 'fxmanifest.lua'), join(dir, 'fxmanifest.lua'));
  cpSync(join(TS_DUTY_HUD, 'web'), join(dir, 'web'), { recursive: true });
  return { dir, remove: () => rmSync(parent, { recursive: true, force: true }) };
}
