// Read by dist/server.js: keep this file free of imports so it costs the bundle a few bytes.

/** The convar of how long a server may go without renewing its liveness before a peer ends its shifts. */
export const LIVENESS_CONVAR = 'BRIDGE_REDIS_LIVENESS_MS';
export const DEFAULT_LIVENESS_MS = 30_000;
const SHORTEST_MS = 1_000;
const LONGEST_MS = 600_000;

/**
 * BRIDGE_REDIS_LIVENESS_MS as set: the default when unset; a value that is not a whole number of milliseconds from
 * 1000 to 600000 is the default too, with the line that says so.
 */
export function livenessMsOf(raw: string): { ms: number; warning?: string } {
  const value = raw.trim();
  if (value === '') return { ms: DEFAULT_LIVENESS_MS };
  const ms = Number(value);
  if (/^\d+$/.test(value) && ms >= SHORTEST_MS && ms <= LONGEST_MS) return { ms };
  return {
    ms: DEFAULT_LIVENESS_MS,
    warning: `${LIVENESS_CONVAR} = "${value}" is not a number of milliseconds from ${SHORTEST_MS} to ${LONGEST_MS}; using ${DEFAULT_LIVENESS_MS}`,
  };
}
