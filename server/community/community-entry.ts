// dist/redis.cjs: everything that runs only in a community of servers (BRIDGE_REDIS_URL), ioredis included. It is a
// CommonJS module loaded by server/community/load-community.ts with FXServer's `require`; what it exports is
// `CommunityModule`. Code that needs Redis belongs under server/community/ and is reached from here, so that
// dist/server.js stays within its size budget and a server without Redis never parses any of it.

import { REDIS_CA_FILE_CONVAR, REDIS_URL_CONVAR } from '../kernel/index.js';
import type { Community, CommunityOptions } from './community.js';
import { startCommunityCounts } from './community-counts.js';
import { communityDuty } from './community-duty.js';
import { startCommunityProfiles } from './community-profiles.js';
import { communityStatusLines } from './community-status-lines.js';
import type { DutyOwners } from './duty-owner-api.js';
import { startDutyOwners } from './duty-owners.js';
import { watchOtherCommunities } from './other-communities.js';
import { sharedReader } from './read-shared.js';
import { readRedisCa } from './redis-ca.js';
import { openRedisLink } from './redis-link.js';
import { parseRedisUrl, type RedisTarget } from './redis-url.js';
import { sharedBudget } from './shared-budget.js';
import { unreachableLink } from './unreachable-link.js';

type RedisSettings = { ok: true; target: RedisTarget; ca?: Buffer } | { ok: false; reason: string };

/** BRIDGE_REDIS_URL and BRIDGE_REDIS_CA_FILE read, each problem one line; why, when this server must run alone. */
function redisSettings({ url, caFile, logger }: CommunityOptions): RedisSettings {
  const parsed = parseRedisUrl(url);
  const alone = (error: string, reason: string): RedisSettings => {
    logger.error(`${error} Until then this server runs alone.`);
    return { ok: false, reason };
  };
  if (!parsed.ok) return alone(parsed.error, `${REDIS_URL_CONVAR} does not read`);
  if (caFile === undefined) return { ok: true, target: parsed.target };
  if (!parsed.target.tls) {
    logger.warn(
      `${REDIS_CA_FILE_CONVAR} is set but ${REDIS_URL_CONVAR} is redis://, without TLS: the CA is not used. Write rediss:// to reach Redis over TLS.`,
    );
    return { ok: true, target: parsed.target };
  }
  const ca = readRedisCa(caFile);
  return ca.ok
    ? { ok: true, target: parsed.target, ca: ca.ca }
    : alone(ca.error, `${REDIS_CA_FILE_CONVAR} cannot serve`);
}

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
