import { BehaviorSubject, NEVER } from 'rxjs';
import type { CommunityLink } from './community.js';
import { communityId, communityPrefix } from './community-keys.js';
import { REDIS_URL_CONVAR } from './redis-convar.js';

/** The link of a BRIDGE_REDIS_URL that does not read: never up, every call refused, so the server runs alone. */
export function unreachableLink(panel: string): CommunityLink & { close(): void } {
  const refuse = () => Promise.reject(new Error(`${REDIS_URL_CONVAR} does not read`));
  return {
    where: `(${REDIS_URL_CONVAR} does not read)`,
    id: communityId(panel),
    prefix: communityPrefix(panel),
    isUp: false,
    up$: new BehaviorSubject(false),
    connected$: NEVER,
    call: refuse,
    script: refuse,
    messages$: () => NEVER,
    close() {},
  };
}
