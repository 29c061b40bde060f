// An owner who makes a second server by copying a first one's folder, its saved data (KVP) included: the simulator's
// KVP directory (sim/server/kvp.ts, the stand-in for FXServer's db/) copied into a new one. Copied while the first
// server runs, as owners do: what its last synced write put on disk is what the copy gets.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Copies a simulated server's KVP directory into a new temporary one and returns it. */
export function copyKvpFolder(from: string): string {
  const to = mkdtempSync(join(tmpdir(), 'bridge-kvp-copy-'));
  cpSync(from, to, { recursive: true });
  return to;
}
