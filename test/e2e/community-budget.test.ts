// One panel budget for a community of servers behind one IP (issue 25 item 2): two sims, 30 players joining each at
// once, a panel that allows 20 requests per window. Alone, each bridge spends what it reads in RateLimit-Remaining
// while the other spends the same requests; with one Redis they spend one budget. Redis killed mid-storm is in
// community-budget-redis-killed.test.ts, so that the two files run side by side.
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
  it('without Redis: every profile arrives; the 429s that remain are measured', { timeout: 180_000 }, async () => {
    community = await startSimCommunity({ servers: SERVERS, rateLimit: RATE_LIMIT, data: people.data });
    const result = await joinStorm(community);
    reportStorm('without Redis', result);
    for (const sim of community.sims) expect(sim.errors).toEqual([]);
  });

  it.skipIf(!redisAvailable())(
    'with one Redis: one budget, 0 × 429 and at least 95 % of the budget used',
    { timeout: 180_000 },
    async () => {
      redis = await startRedisServer();
      community = await startSimCommunity({
        servers: SERVERS,
        rateLimit: RATE_LIMIT,
        data: people.data,
        redisUrl: redis.url(),
      });
      await community.untilOnRedis();
      const result = await joinStorm(community);
      reportStorm('with Redis', result);
      expect(result.tooManyRequests).toBe(0);
      expect(result.use).toBeGreaterThanOrEqual(0.95);
    },
  );
});
