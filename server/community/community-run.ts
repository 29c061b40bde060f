import { randomBytes } from 'node:crypto';
import type { KeyValueStore } from '../kernel/index.js';

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
