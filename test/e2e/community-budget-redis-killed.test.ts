// The community budget's join storm (community-budget.test.ts) with its Redis killed with -9 mid-storm and started
// again empty (issue 25 item 2): every profile still arrives, and each server says so once each way.
import { afterEach, describe, expect, it } from 'vitest';
import { type RedisServer, redisAvailable, startRedisServer } from '../support/redis-server.js';
import { type SimCommunity, startSimCommunity } from './support/community.js';
import { joinStorm, people, RATE_LIMIT, reportStorm, SERVERS, STORM } from './support/join-storm.js';

let community: SimCommunity | undefined;
let redis: RedisServer | undefined;
afterEach(async () => {
  await community?.close();
  await redis?.stop();
  community = undefined;
  redis = undefined;
});

describe(STORM, () => {
  it.skipIf(!redisAvailable())(
    'Redis killed with -9 mid-storm and restarted empty: every profile arrives, one WARN and one INFO per server',
    { timeout: 180_000 },
    async () => {
      redis = await startRedisServer();
      const shared = redis;
      community = await startSimCommunity({
        servers: SERVERS,
        rateLimit: RATE_LIMIT,
        data: people.data,
        redisUrl: redis.url(),
      });
      const world = community;
      await world.untilOnRedis();
      const result = await joinStorm(world, [
        [15, () => shared.kill()],
        [35, () => shared.restart()],
      ]);
      reportStorm('Redis killed mid-storm', result);
      for (const sim of world.sims) {
        await sim.until(() => world.consoleOf(sim).includes('answers again'), 10_000, 'Redis back');
        const redisLines = world
          .consoleOf(sim)
          .split('\n')
          .filter((line) => line.includes('BRIDGE_REDIS_URL'));
        expect(redisLines).toEqual([
          expect.stringMatching(/^INFO: this server is one of a community/),
          expect.stringMatching(/^WARN: Redis at .* \(BRIDGE_REDIS_URL\) is gone/),
          expect.stringMatching(/^INFO: Redis at .* \(BRIDGE_REDIS_URL\) answers again/),
        ]);
        expect(sim.errors).toEqual([]);
      }
    },
  );
});
