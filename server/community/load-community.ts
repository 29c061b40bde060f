// What dist/server.js does to join a community: this run's id, the liveness convar read, and dist/redis.cjs loaded.
// It is in the main bundle, so it imports nothing that runs with Redis (ioredis stays in dist/redis.cjs).
import { randomBytes } from 'node:crypto';
import type { KeyValueStore } from '../kernel/index.js';
import { type LoadModule, type OptionalModule, REDIS_URL_CONVAR, startOptionalModule } from '../kernel/index.js';
import type { Community, CommunityOptions } from './community.js';
import type * as CommunityEntry from './community-entry.js';

/** dist/redis.cjs (server/community/community-entry.ts), ioredis with it. */
export const COMMUNITY_MODULE: OptionalModule = {
  path: './dist/redis.cjs',
  start: 'startCommunity' satisfies keyof typeof CommunityEntry,
  without: 'This server runs alone.',
};

/**
 * With BRIDGE_REDIS_URL set, loads dist/redis.cjs and joins the community; the file is parsed only then, so a server
 * without Redis starts as it always did. Anything wrong leaves one line and a server that runs alone.
 */
export function joinCommunity(options: CommunityOptions, load: LoadModule | undefined): Community | undefined {
  return startOptionalModule<typeof CommunityEntry.startCommunity>(
    COMMUNITY_MODULE,
    { wanted: `${REDIS_URL_CONVAR} is set`, load, logger: options.logger },
    options,
  );
}

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

const RUN_KEY = 'community:run';

/** This run of this server in the community, and the run before it on this server (kept in resource KVP). */
export interface CommunityRun {
  id: string;
  /** The last run's id: what it left in Redis (a crash leaves its counts) is this run's to take out. */
  previous: string | undefined;
}

/**
 * A new id for every run: two runs never share one, even when an owner copied a server's folder with its KVP. The
 * last run's id is read first, so a server restarted after a crash takes its counts out at once instead of counting
 * them twice until they expire.
 */
export function startCommunityRun(store: Pick<KeyValueStore, 'get' | 'set'>): CommunityRun {
  const kept = store.get(RUN_KEY);
  const previous = kept !== null && /^[0-9a-f]{16}$/.test(kept) ? kept : undefined;
  const id = randomBytes(8).toString('hex');
  store.set(RUN_KEY, id);
  return { id, previous };
}
