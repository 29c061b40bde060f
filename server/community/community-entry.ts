// dist/redis.js: everything that runs only in a community of servers (BRIDGE_REDIS_URL), ioredis included. It is a
// CommonJS module loaded by server/community/load-community.ts with FXServer's `require`; what it exports is
// `CommunityModule`. Code that needs Redis belongs under server/community/ and is reached from here, so that
// dist/server.js stays within its size budget and a server without Redis never parses any of it.

import type { Community, CommunityOptions } from './community.js';
import { startCommunityCounts } from './community-counts.js';
import { communityPrefix } from './community-keys.js';
import { startCommunityProfiles } from './community-profiles.js';
import type { DutyOwners } from './duty-owner-api.js';
import { startDutyOwners } from './duty-owners.js';
import { sharedReader } from './read-shared.js';
import { openRedisLink } from './redis-link.js';
import { parseRedisUrl } from './redis-url.js';
import { sharedBudget } from './shared-budget.js';
import { unreachableLink } from './unreachable-link.js';

export function startCommunity(options: CommunityOptions): Community {
  const { logger } = options;
  const prefix = communityPrefix(options.apiBase);
  const parsed = parseRedisUrl(options.url);
  if (!parsed.ok) logger.error(`${parsed.error} Until then this server runs alone.`);
  const link = parsed.ok ? openRedisLink({ target: parsed.target, prefix, logger }) : unreachableLink(prefix);
  const readShared = sharedReader(logger);
  // This run of this server, in what it writes and announces: a run after a crash is a new one.
  const serverId = options.run.id;
  const profiles = startCommunityProfiles({ link, readShared, serverId, logger });
  const counts = startCommunityCounts({
    ...{ link, readShared, serverId, logger },
    previousRun: options.run.previous,
    now: options.now,
    sleep: options.sleep,
  });
  let owners: DutyOwners | undefined;
  return {
    link,
    budget: sharedBudget({ link, readShared, now: options.now, logger, serverId }),
    readShared,
    profiles,
    counts,
    // A URL that does not read leaves this server alone: its duty is one server's, crash recovery included.
    dutyOwners(store) {
      if (!parsed.ok) return undefined;
      owners ??= startDutyOwners({
        ...{ link, readShared, store, logger, now: options.now, sleep: options.sleep },
        ...{ run: options.run, livenessMs: options.livenessMs },
      });
      return owners;
    },
    stop() {
      owners?.stop();
      counts.stop();
      link.close();
    },
  };
}
