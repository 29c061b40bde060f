import { BehaviorSubject, NEVER } from 'rxjs';
import type { CommunityLink } from './community.js';
import { communityId, communityPrefix } from './community-keys.js';

/**
 * The link of a BRIDGE_REDIS_URL (or BRIDGE_REDIS_CA_FILE) that does not read: never up, every call refused, so the
 * server runs alone. `reason` says which, for `bridge status`.
 */
export function unreachableLink(panel: string, reason: string): CommunityLink & { close(): void } {
  const refuse = () => Promise.reject(new Error(reason));
  return {
    where: `(${reason})`,
    id: communityId(panel),
    prefix: communityPrefix(panel),
    isUp: false,
    since: undefined,
    reason,
    up$: new BehaviorSubject(false),
    connected$: NEVER,
    call: refuse,
    script: refuse,
    messages$: () => NEVER,
    close() {},
  };
}
