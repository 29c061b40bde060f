// The community's on-duty counts (issue 25, item 5): GlobalState['bridge:communityOnDutyCount'] and
// GetCommunityOnDutyCount on several simulated servers against one mock panel and one real redis-server. Each server
// writes its own counts with an expiry it refreshes while it lives; the community count is the sum, and survives a
// crashed server, Redis killed and restarted empty, and garbage under the keys.
import { afterEach, describe, expect, it } from 'vitest';
import { communityPrefix } from '../../server/community/communities.js';
import { COUNTS_BEAT_MS, COUNTS_TTL_MS } from '../../server/community/community-counts.js';
import { COMMUNITY_ON_DUTY_COUNT_KEY, ON_DUTY_COUNT_KEY } from '../../shared/events.js';
import type { Sim, SimPlayer } from '../../sim/index.js';
import { MEMBER_WITHOUT_RANK_ROLE, ONE_DEPARTMENT, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { type RedisServer, redisAvailable, startRedisServer } from '../support/redis-server.js';
import { changeDuty } from './support/bridge-exports.js';
import { type SimCommunity, startSimCommunity } from './support/community.js';

let community: SimCommunity | undefined;
let redis: RedisServer | undefined;
afterEach(async () => {
  await community?.close();
  await redis?.stop();
  community = undefined;
  redis = undefined;
});

const communityCountOf = (sim: Sim) => sim.stateBag('global')[COMMUNITY_ON_DUTY_COUNT_KEY];
const exportOf = (sim: Sim) =>
  sim.exports.bridge as unknown as { GetCommunityOnDutyCount(slug?: unknown): number; GetOnDutyCount(): number };

/** Frames pass on the server until its community count is `counts` (bounded: `withinMs` of its clock). */
const sorted = (counts: unknown) => JSON.stringify(Object.entries(counts ?? {}).sort(([x], [y]) => x.localeCompare(y)));
const untilCounts = (sim: Sim, counts: Record<string, number>, withinMs = 5_000) =>
  sim.until(
    () => sorted(communityCountOf(sim)) === sorted(counts),
    withinMs,
    `the community count ${JSON.stringify(counts)} (has ${JSON.stringify(communityCountOf(sim))})`,
  );

async function onDuty(world: SimCommunity, sim: Sim, chat: string, name: string, index = 0): Promise<SimPlayer> {
  const player = await world.join(sim, chat, name);
  await sim.until(() => world.hasProfile(sim, player), 10_000, 'the profile');
  expect((await changeDuty(sim, player, true, index)).ok).toBe(true);
  return player;
}

async function communityOf(servers: number): Promise<[SimCommunity, Sim[]]> {
  redis = await startRedisServer();
  const world = await startSimCommunity({ servers, redisUrl: redis.url() });
  community = world;
  await world.untilOnRedis();
  return [world, world.sims];
}

describe('without BRIDGE_REDIS_URL', () => {
  it("the community count is this server's own count", async () => {
    community = await startSimCommunity({ servers: 1 });
    const [sim] = community.sims as [Sim];
    await untilCounts(sim, { total: 0 });
    await onDuty(community, sim, TWO_DEPARTMENTS, 'Alex Mercer');
    await untilCounts(sim, { lspd: 1, total: 1 });
    expect(communityCountOf(sim)).toEqual(sim.stateBag('global')[ON_DUTY_COUNT_KEY]);
    expect(exportOf(sim).GetCommunityOnDutyCount('lspd')).toBe(1);
    expect(exportOf(sim).GetCommunityOnDutyCount()).toBe(1);
    expect(exportOf(sim).GetCommunityOnDutyCount(42)).toBe(0);
  });
});

describe.skipIf(!redisAvailable())("the community's on-duty counts", () => {
  it('add up the duties of every server, on every server, after changes on each', async () => {
    const [world, [a, b]] = await communityOf(2);
    if (!a || !b) throw new Error('two servers');
    const alex = await onDuty(world, a, TWO_DEPARTMENTS, 'Alex Mercer'); // LSPD on A
    await untilCounts(b, { lspd: 1, total: 1 });
    const jamie = await onDuty(world, b, ONE_DEPARTMENT, 'Jamie Rivera'); // SAFR on B
    await onDuty(world, b, MEMBER_WITHOUT_RANK_ROLE, 'Casey Novak'); // LSPD on B
    for (const sim of [a, b]) await untilCounts(sim, { lspd: 2, total: 3, safr: 1 });
    expect(exportOf(a).GetCommunityOnDutyCount('lspd')).toBe(2);
    expect(exportOf(a).GetCommunityOnDutyCount()).toBe(3);
    // Each server's own count is still its own.
    expect(a.stateBag('global')[ON_DUTY_COUNT_KEY]).toEqual({ lspd: 1, total: 1 });
    expect(b.stateBag('global')[ON_DUTY_COUNT_KEY]).toEqual({ lspd: 1, safr: 1, total: 2 });

    await changeDuty(a, alex, true, 1); // A: LSPD → BCSO
    await changeDuty(b, jamie, false); // B: SAFR off
    for (const sim of [a, b]) await untilCounts(sim, { bcso: 1, total: 2, lspd: 1 });
    // Replicated to the clients like the server's own count.
    await a.settle();
    expect(alex.stateBag('global')[COMMUNITY_ON_DUTY_COUNT_KEY]).toEqual(communityCountOf(a));
    for (const sim of [a, b]) expect(sim.errors).toEqual([]);
  });

  it("a crashed server's duties stop counting within the counts' TTL", async () => {
    const [world, [a, b]] = await communityOf(2);
    if (!a || !b) throw new Error('two servers');
    await onDuty(world, a, TWO_DEPARTMENTS, 'Alex Mercer');
    await onDuty(world, b, ONE_DEPARTMENT, 'Jamie Rivera');
    await untilCounts(b, { safr: 1, total: 2, lspd: 1 });
    await a.kill(); // no onResourceStop: A's counts are left in Redis to expire
    // B's clock: within the TTL, plus one beat to read again, plus a margin for a loaded machine.
    await untilCounts(b, { safr: 1, total: 1 }, COUNTS_TTL_MS + COUNTS_BEAT_MS + 2_000);
    expect(b.errors).toEqual([]);
  });

  it("a server restarted after a crash takes its last run's counts out at once, rather than counting them twice", async () => {
    const [world, [a, b]] = await communityOf(2);
    if (!a || !b) throw new Error('two servers');
    const hash = `${communityPrefix(world.server.url)}counts`;
    await onDuty(world, a, TWO_DEPARTMENTS, 'Alex Mercer');
    await onDuty(world, b, ONE_DEPARTMENT, 'Jamie Rivera');
    await untilCounts(b, { safr: 1, total: 2, lspd: 1 });
    const before = (await redis?.command('HKEYS', hash)) as string[];
    expect(before).toHaveLength(2);

    await a.kill();
    await a.restart(); // a new run on the same KVP; its players are gone
    let fields = before;
    for (let frame = 0; frame < 200 && fields.every((id) => before.includes(id)); frame++) {
      await a.tick();
      fields = (await redis?.command('HKEYS', hash)) as string[];
    }
    // The moment the new run's counts are there, the crashed run's are gone.
    expect(fields).toHaveLength(2);
    await untilCounts(b, { safr: 1, total: 1 }, COUNTS_BEAT_MS + 1_000);
    for (const sim of [a, b]) expect(sim.errors).toEqual([]);
  });

  it('Redis killed with kill -9 and restarted empty: each server keeps its own count, and the sum comes back', async () => {
    const [world, [a, b]] = await communityOf(2);
    if (!a || !b) throw new Error('two servers');
    const live = redis as RedisServer;
    await onDuty(world, a, TWO_DEPARTMENTS, 'Alex Mercer');
    await onDuty(world, b, ONE_DEPARTMENT, 'Jamie Rivera');
    for (const sim of [a, b]) await untilCounts(sim, { lspd: 1, total: 2, safr: 1 });

    await live.kill();
    await a.until(() => world.consoleOf(a).includes('is gone'), 10_000, 'the warning');
    // A duty change while Redis is gone counts on its own server at once.
    await onDuty(world, a, MEMBER_WITHOUT_RANK_ROLE, 'Casey Novak');
    expect(exportOf(a).GetCommunityOnDutyCount('lspd')).toBeGreaterThanOrEqual(2);

    await live.restart();
    for (const sim of [a, b]) await untilCounts(sim, { lspd: 2, total: 3, safr: 1 }, 20_000);
    const fields = (await live.command('HKEYS', `${communityPrefix(world.server.url)}counts`)) as string[];
    expect(fields).toHaveLength(2);
    for (const sim of [a, b]) expect(sim.errors).toEqual([]);
  });

  it('garbage under the count keys is set aside with one line and never added up', async () => {
    const [world, [a, b]] = await communityOf(2);
    if (!a || !b) throw new Error('two servers');
    const prefix = communityPrefix(world.server.url);
    const live = redis as RedisServer;
    await onDuty(world, a, TWO_DEPARTMENTS, 'Alex Mercer');
    await untilCounts(b, { lspd: 1, total: 1 });
    // Another program writes counts of its own: one that is no JSON, one that counts minus ten, both alive for long.
    await live.command('HSET', `${prefix}counts`, 'intruder', 'not json', 'liar', '{"lspd":-10,"total":-10}');
    await live.command('ZADD', `${prefix}counts:expiry`, '99999999999999', 'intruder', '99999999999999', 'liar');
    await onDuty(world, b, ONE_DEPARTMENT, 'Jamie Rivera');
    for (const sim of [a, b]) await untilCounts(sim, { lspd: 1, total: 2, safr: 1 });
    // B reads the others' counts at its next beat at the latest.
    await b.until(() => (world.consoleOf(b).match(/set aside/g) ?? []).length >= 2, 5_000, 'the garbage read');
    for (const sim of [a, b]) await untilCounts(sim, { lspd: 1, total: 2, safr: 1 });
    const lines = world
      .consoleOf(b)
      .split('\n')
      .filter((line) => line.includes('set aside'));
    expect(lines).toEqual([
      expect.stringMatching(/^WARN: Redis holds something under .*counts \(server intruder\) that is not JSON/),
      expect.stringMatching(/^WARN: Redis holds something under .*counts \(server liar\) that does not read/),
    ]);

    // The hash replaced by a string: set aside as a whole, and the servers write their counts again.
    await live.command('DEL', `${prefix}counts`);
    await live.command('SET', `${prefix}counts`, 'garbage');
    const setAside = () =>
      [a, b].flatMap((sim) => world.consoleOf(sim).split('\n')).filter((line) => line.includes('set aside as'));
    await a.until(() => setAside().length > 0, 10_000, 'the hash set aside');
    // The first server that meets it sets it aside; the other finds the counts written again.
    expect(setAside()).toEqual([
      `WARN: Redis holds a string under ${prefix}counts, not the hash the bridge keeps there; it is set aside as ${prefix}counts:set-aside`,
    ]);
    await changeDuty(a, a.players[0] as SimPlayer, false);
    for (const sim of [a, b]) await untilCounts(sim, { total: 1, safr: 1 }, 10_000);
    expect(await live.command('GET', `${prefix}counts:set-aside`)).toBe('garbage');
    for (const sim of [a, b]) expect(sim.errors).toEqual([]);
  });
});
