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
