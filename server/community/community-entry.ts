// dist/redis.cjs: everything that runs only in a community of servers (BRIDGE_REDIS_URL), ioredis included. It is a
// CommonJS module loaded by server/community/load-community.ts with FXServer's `require`; what it exports is
// `CommunityModule`. Code that needs Redis belongs under server/community/ and is reached from here, so that
// dist/server.js stays within its size budget and a server without Redis never parses any of it.

import type { Community, CommunityOptions } from './community.js';
import { startCommunityCounts } from './community-counts.js';
import { startCommunityProfiles } from './community-profiles.js';
import { startDutyOwners } from './duty-owners.js';
import { watchOtherCommunities } from './other-communities.js';
import { sharedReader } from './read-shared.js';
import { readRedisCa } from './redis-ca.js';
import { REDIS_CA_FILE_CONVAR, REDIS_URL_CONVAR } from './redis-convar.js';
import { openRedisLink } from './redis-link.js';
import { parseRedisUrl, type RedisTarget } from './redis-url.js';
import { sharedBudget } from './shared-budget.js';
import { unreachableLink } from './unreachable-link.js';

/** BRIDGE_REDIS_URL and BRIDGE_REDIS_CA_FILE read, each problem one line; nothing when this server must run alone. */
function redisSettings({ url, caFile, logger }: CommunityOptions): { target: RedisTarget; ca?: Buffer } | undefined {
  const parsed = parseRedisUrl(url);
  const alone = (error: string) => {
    logger.error(`${error} Until then this server runs alone.`);
    return undefined;
  };
  if (!parsed.ok) return alone(parsed.error);
  if (caFile === undefined) return { target: parsed.target };
  if (!parsed.target.tls) {
    logger.warn(
      `${REDIS_CA_FILE_CONVAR} is set but ${REDIS_URL_CONVAR} is redis://, without TLS: the CA is not used. Write rediss:// to reach Redis over TLS.`,
    );
    return { target: parsed.target };
  }
  const ca = readRedisCa(caFile);
  return ca.ok ? { target: parsed.target, ca: ca.ca } : alone(ca.error);
}

export function startCommunity(options: CommunityOptions): Community {
  const { logger } = options;
  const panel = options.apiBase;
  const redis = redisSettings(options);
  const link = redis ? openRedisLink({ ...redis, panel, logger }) : unreachableLink(panel);
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
  const others = watchOtherCommunities({ link, id: link.id, panel, logger, sleep: options.sleep });
  return {
    link,
    budget: sharedBudget({ link, readShared, now: options.now, logger, serverId }),
    readShared,
    profiles,
    counts,
    // A URL (or CA file) that does not read leaves this server alone: its duty is one server's, crash recovery included.
    dutyOwners: (store) =>
      redis ? startDutyOwners({ link, readShared, store, logger, now: options.now, sleep: options.sleep }) : undefined,
    stop() {
      others.stop();
      counts.stop();
      link.close();
    },
  };
}
