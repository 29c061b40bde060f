import { randomBytes } from 'node:crypto';
import type { Logger } from '../log/logger.js';
import type { KeyValueStore } from '../storage/key-value-store.js';

export const IDENTITY_KEY = 'community:server';
const IDENTITY = /^[0-9a-f]{16}$/;

/**
 * This server's identity in the community, kept in resource KVP: the same after a crash or a restart, so the duties
 * its last run left open are recognised as its own. Made once, at the first start with Redis; a value that does not
 * read (set by hand, damaged) is replaced and told in one line. Another live server with the same identity (a copied
 * folder) is found by the liveness (server-liveness.ts), which then gives this server a fresh one.
 */
export function serverIdentity(store: Pick<KeyValueStore, 'get' | 'set'>, logger: Pick<Logger, 'warn'>): string {
  const kept = store.get(IDENTITY_KEY);
  if (kept !== null && IDENTITY.test(kept)) return kept;
  const made = randomBytes(8).toString('hex');
  if (kept !== null) {
    logger.warn(
      `${IDENTITY_KEY} in KVP is not a server identity (16 hexadecimal digits); this server is ${made} in the community from now on`,
    );
  }
  store.set(IDENTITY_KEY, made);
  return made;
}
