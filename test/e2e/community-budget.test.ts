// One panel budget for a community of servers behind one IP (issue 25 item 2): two sims, 30 players joining each at
// once, a panel that allows 20 requests per 10 s per IP. Alone, each bridge spends what it reads in
// RateLimit-Remaining while the other spends the same requests; with one Redis they spend one budget.
import { afterEach, describe, expect, it } from 'vitest';
import { population } from '../../bench/support/population.js';
import { type RedisServer, redisAvailable, startRedisServer } from '../support/redis-server.js';
import { type SimCommunity, startSimCommunity } from './support/community.js';

const RATE_LIMIT = { limit: 20, windowMs: 10_000 };
const PLAYERS_PER_SERVER = 30;
// COMMUNITY_SERVERS=3 measures three servers (the figures in README's "Several servers").
const SERVERS = Number(process.env.COMMUNITY_SERVERS ?? 2);
const people = population(SERVERS * PLAYERS_PER_SERVER);

let community: SimCommunity | undefined;
let redis: RedisServer | undefined;
afterEach(async () => {
  await community?.close();
  await redis?.stop();
  community = undefined;
  redis = undefined;
});

/**
 * Every player of every server joins at once; resolves when every client has its profile. `during` runs once this
 * many profiles have arrived (Redis killed mid-storm, say).
 */
async function joinStorm(world: SimCommunity, during: Array<[number, () => Promise<void>]> = []) {
  const joined = await Promise.all(
    people.members.map(async (member, index) => {
      const sim = world.sims[index % SERVERS];
      if (!sim) throw new Error('no server');
      return { sim, player: await world.join(sim, member.chatId, member.player.name) };
    }),
  );
  const [first] = world.sims;
  const arrived = () => joined.filter(({ sim, player }) => world.hasProfile(sim, player)).length;
  for (const [profiles, act] of during) {
    await first?.until(() => arrived() >= profiles, 120_000, `${profiles} profiles`);
    await act();
  }
  await first?.until(
    () => joined.every(({ sim, player }) => world.hasProfile(sim, player)),
    120_000,
    'every profile of the storm',
  );
  const statuses = world.statuses();
  return { tooManyRequests: statuses.filter((status) => status === 429).length, ...world.budgetUse() };
}

const report = (label: string, result: Awaited<ReturnType<typeof joinStorm>>) =>
  console.log(
    `[community budget] ${label}: ${result.tooManyRequests} × 429, budget use ${(result.use * 100).toFixed(1)} % (accepted per window: ${result.windows.join(', ')})`,
  );

describe('two servers behind one IP, 30 joins each, a panel allowing 20 requests per 10 s', () => {
  it('without Redis: every profile arrives; the 429s that remain are measured', { timeout: 180_000 }, async () => {
    community = await startSimCommunity({ servers: SERVERS, rateLimit: RATE_LIMIT, data: people.data });
    const result = await joinStorm(community);
    report('without Redis', result);
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
      report('with Redis', result);
      expect(result.tooManyRequests).toBe(0);
      expect(result.use).toBeGreaterThanOrEqual(0.95);
    },
  );

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
      report('Redis killed mid-storm', result);
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
