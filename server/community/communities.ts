// Which community this server is on its Redis (an id from the panel's address, the prefix of its keys), and the other
// communities that share that Redis.
import { createHash } from 'node:crypto';
import { Subscription } from 'rxjs';
import type { Logger } from '../kernel/index.js';
import { API_BASE_CONVAR, REDIS_URL_CONVAR } from '../kernel/index.js';
import type { CommunityLink } from './community.js';
import { setAsideWrongType } from './read-shared.js';

/**
 * The community's id: 16 hex of SHA-256(BRIDGE_API_BASE as the bridge reads it). The bridge reads the address through
 * WHATWG URL (server/kernel/settings.ts): scheme and host lower-cased, a default port and trailing slashes dropped,
 * `/api/leo` taken off. So `HTTPS://Panel.example.com:443/` and `https://panel.example.com` are one community;
 * `localhost` and `127.0.0.1`, or two paths, are not (they may be two panels), and COMMUNITIES_KEY tells the owner.
 */
export function communityId(apiBase: string): string {
  return createHash('sha256').update(apiBase).digest('hex').slice(0, 16);
}

/**
 * `bridge:<community id>:`: bridges naming the same panel share keys, two panels on one Redis never meet, and nothing
 * in Redis says which panel it is (the token never goes there at all).
 */
export function communityPrefix(apiBase: string): string {
  return `bridge:${communityId(apiBase)}:`;
}

/**
 * The one key outside every community's prefix: the ids of the communities on this Redis, each with when it was last
 * seen (by Redis's clock), so that one panel named two ways does not silently make two communities.
 */
export const COMMUNITIES_KEY = 'bridge:communities';

/** Every server says its community is alive this often (on its own monotonic clock). */
export const COMMUNITIES_BEAT_MS = 10_000;
/** A community none of whose servers said so for this long (on Redis's clock) is no longer counted. */
export const COMMUNITIES_TTL_MS = 3 * COMMUNITIES_BEAT_MS;

const COMMUNITY_ID = /^[0-9a-f]{16}$/;

// This community is alive now, by Redis's clock; the ones not seen for a TTL are taken out; the others are returned.
const SEEN = `
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ttl)
redis.call('PEXPIRE', KEYS[1], ttl)
return redis.call('ZRANGE', KEYS[1], 0, -1)`;

export interface OtherCommunitiesOptions {
  link: CommunityLink;
  /** This server's community (communityId). */
  id: string;
  /** BRIDGE_API_BASE as the bridge reads it: what this server calls the panel. */
  panel: string;
  logger: Logger;
  sleep: (ms: number) => Promise<void>;
  /** How long a community counts after its last beat; COMMUNITIES_TTL_MS but in tests. */
  ttlMs?: number;
}

/**
 * Watches for other communities on this Redis. Servers that name one panel two ways (`localhost` and `127.0.0.1`, a
 * path) hash to two communities that share nothing: no budget, no profiles, no counts. Only ids go to Redis, never a
 * panel's address; each community is told once, naming both ids and this server's panel, so the owner compares the
 * start lines of the servers.
 */
export function watchOtherCommunities(options: OtherCommunitiesOptions): { stop(): void } {
  const { link, id, panel, logger, sleep, ttlMs = COMMUNITIES_TTL_MS } = options;
  let stopped = false;
  const look = () =>
    link
      .script<unknown>(SEEN, [COMMUNITIES_KEY], [id, ttlMs])
      .then((members) => {
        for (const other of Array.isArray(members) ? members : []) {
          if (typeof other !== 'string' || other === id || !COMMUNITY_ID.test(other)) continue;
          logger.once(
            `other-community:${other}`,
            'warn',
            `another community, ${other}, uses this Redis (${REDIS_URL_CONVAR}); this server is community ${id} of the panel ${panel}. If both name one panel, give every server the same ${API_BASE_CONVAR}: until then they share no budget, profiles or counts (compare each server's start line)`,
          );
        }
      })
      .catch((error: unknown) => {
        setAsideWrongType(link, error, { [COMMUNITIES_KEY]: 'zset' }, logger);
      });
  const subscription = new Subscription();
  subscription.add(link.connected$.subscribe(() => void look()));
  void (async () => {
    while (!stopped) {
      await sleep(COMMUNITIES_BEAT_MS);
      if (stopped) break;
      if (link.isUp) await look();
    }
  })();
  return {
    stop() {
      stopped = true;
      subscription.unsubscribe();
    },
  };
}
