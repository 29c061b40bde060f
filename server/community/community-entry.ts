// dist/redis.cjs: everything that runs only in a community of servers (BRIDGE_REDIS_URL), ioredis included. It is a
// CommonJS module loaded by server/community/load-community.ts with FXServer's `require`; what it exports is
// `CommunityModule`. Code that needs Redis belongs under server/community/ and is reached from here, so that
// dist/server.js stays within its size budget and a server without Redis never parses any of it.

import { watchOtherCommunities } from './communities.js';
import type { Community, CommunityOptions, DutyOwners } from './community.js';
import { startCommunityCounts } from './community-counts.js';
import { communityDuty } from './community-duty.js';
import { startCommunityProfiles } from './community-profiles.js';
import { communityStatusLines } from './community-status-lines.js';
import { startDutyOwners } from './duty-owners.js';
import { sharedReader } from './read-shared.js';
import { openRedisLink, unreachableLink } from './redis-link.js';
import { redisSettings } from './redis-settings.js';
import { sharedBudget } from './shared-budget.js';

export function startCommunity(options: CommunityOptions): Community {
  const { logger, now, sleep } = options;
  const panel = options.apiBase;
  const redis = redisSettings(options);
  const link = redis.ok ? openRedisLink({ ...redis, panel, logger, now }) : unreachableLink(panel, redis.reason);
  const readShared = sharedReader(logger);
  // This run of this server, in what it writes and announces: a run after a crash is a new one.
  const serverId = options.run.id;
  const profiles = startCommunityProfiles({ link, readShared, serverId, logger });
  const counts = startCommunityCounts({
    ...{ link, readShared, serverId, logger, now, sleep },
    previousRun: options.run.previous,
  });
  const budget = sharedBudget({ link, readShared, now, logger, serverId });
  const others = watchOtherCommunities({ link, id: link.id, panel, logger, sleep });
  let owners: DutyOwners | undefined;
  return {
    link,
    budget,
    readShared,
    profiles,
    counts,
    // A URL (or CA file) that does not read leaves this server alone: its duty is one server's, crash recovery included.
    dutyOwners(store) {
      if (!redis.ok) return undefined;
      owners ??= startDutyOwners({
        ...{ link, readShared, store, logger, now, sleep },
        ...{ run: options.run, livenessMs: options.livenessMs },
      });
      return owners;
    },
    duty: communityDuty,
    statusLines: (held, at) =>
      communityStatusLines(
        {
          id: link.id,
          panel,
          where: link.where,
          up: link.isUp,
          since: link.since,
          reason: link.reason,
          serversAlive: counts.servers,
          budget: { shared: budget.active, servers: budget.servers, aloneForMs: budget.aloneForMs },
        },
        held,
        at,
        owners?.settling(),
      ),
    stop() {
      owners?.stop();
      others.stop();
      counts.stop();
      link.close();
    },
  };
}
