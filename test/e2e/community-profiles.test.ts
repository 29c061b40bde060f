// Profiles fetched once for the community (issue 25, item 4): several simulated servers, one mock panel, one real
// redis-server. A profile any server got from the panel serves every server while it is fresh, and a server that gets
// it again (/dutyrefresh, a role change) takes every other server with it. What Redis holds is read like a panel
// answer, and Redis going, coming back empty or holding garbage costs no player their profile.
import { afterEach, describe, expect, it } from 'vitest';
import { communityPrefix } from '../../server/community/communities.js';
import type { Sim, SimPlayer } from '../../sim/index.js';
import { LSPD_ROLES, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { type RedisServer, redisAvailable, startRedisServer } from '../support/redis-server.js';
import { changeDuty } from './support/bridge-exports.js';
import { type SimCommunity, startSimCommunity } from './support/community.js';

const ALEX = TWO_DEPARTMENTS;
let community: SimCommunity | undefined;
let redis: RedisServer | undefined;
afterEach(async () => {
  await community?.close();
  await redis?.stop();
  community = undefined;
  redis = undefined;
});

/** The departments requests the panel received for one account (the start-up probes are another account). */
const departmentsAsked = (world: SimCommunity, chatId: string) =>
  world.panel.controls
    .requests()
    .filter((request) => request.method === 'GET' && request.path.includes(chatId) && !request.startupCheck).length;

const profilesOf = (sim: Sim, player: SimPlayer) =>
  sim.events
    .filter((event) => event.name === 'bridge:client:profile' && event.player === player.id)
    .map((event) => event.args[0] as { ok: boolean; departments?: Array<{ slug: string }> });

const slugsOf = (profile: { departments?: Array<{ slug: string }> } | undefined) =>
  (profile?.departments ?? []).map((department) => department.slug);

async function communityOf(servers: number): Promise<[SimCommunity, Sim[]]> {
  redis = await startRedisServer();
  const world = await startSimCommunity({ servers, redisUrl: redis.url() });
  community = world;
  await world.untilOnRedis();
  return [world, world.sims];
}

async function joinedWithProfile(world: SimCommunity, sim: Sim, chat: string, name: string): Promise<SimPlayer> {
  const player = await world.join(sim, chat, name);
  await sim.until(() => world.hasProfile(sim, player), 10_000, 'the profile');
  await sim.settle();
  return player;
}

describe.skipIf(!redisAvailable())('profiles fetched once for the community', () => {
  it('a player who switches from server A to server B costs no second departments request', async () => {
    const [world, [a, b]] = await communityOf(2);
    if (!a || !b) throw new Error('two servers');
    const onA = await joinedWithProfile(world, a, ALEX, 'Alex Mercer');
    expect(departmentsAsked(world, ALEX)).toBe(1);
    onA.drop();
    const onB = await joinedWithProfile(world, b, ALEX, 'Alex Mercer');

    expect(departmentsAsked(world, ALEX)).toBe(1);
    expect(slugsOf(profilesOf(b, onB).at(-1))).toEqual(slugsOf(profilesOf(a, onA).at(-1)));
    expect(slugsOf(profilesOf(b, onB).at(-1))).toEqual(['lspd', 'bcso']);
    // The community's copy expires with its freshness, and holds no token and no panel address.
    const key = `${communityPrefix(world.server.url)}profile:${ALEX}`;
    const pttl = Number(await redis?.command('PTTL', key));
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(300_000);
    const stored = String(await redis?.command('GET', key));
    expect(stored).not.toContain(world.server.url);
    expect(stored).not.toMatch(/token/i);
    for (const sim of [a, b]) expect(sim.errors).toEqual([]);
  });

  it('a player back on a server that holds their profile stale takes the fresher copy another server got: no request', async () => {
    redis = await startRedisServer();
    // A short refresh interval, so that a profile goes stale within the test (on the servers' own clocks).
    const world = await startSimCommunity({
      servers: 2,
      redisUrl: redis.url(),
      config: 'Config.RefreshIntervalMs = 1500',
    });
    community = world;
    const [a, b] = world.sims as [Sim, Sim];
    await world.untilOnRedis();
    (await joinedWithProfile(world, b, ALEX, 'Alex Mercer')).drop();
    // B is down (its profiles kept in KVP) while its copy and the community's expire, and A gets the profile again.
    await b.kill();
    await a.advance(1_600);
    (await joinedWithProfile(world, a, ALEX, 'Alex Mercer')).drop();
    expect(departmentsAsked(world, ALEX)).toBe(2);
    await b.restart();
    await b.until(
      () => (world.consoleOf(b).match(/one of a community on Redis/g) ?? []).length === 2,
      10_000,
      'B back in the community',
    );

    // Back on B, which loaded its stale copy from KVP: the one A got a moment ago is fresh, and taken.
    const back = await world.join(b, ALEX, 'Alex Mercer');
    await b.until(() => profilesOf(b, back).length >= 2, 10_000, 'the stale profile, then the fresh one');
    await b.settle();
    expect(departmentsAsked(world, ALEX)).toBe(2);
    for (const sim of [a, b]) expect(sim.errors).toEqual([]);
  });

  it('/dutyrefresh on A after a role change reaches B: its copy, its player, and the duty it no longer allows', async () => {
    const [world, [a, b]] = await communityOf(2);
    if (!a || !b) throw new Error('two servers');
    // The same account on both servers (a player who switched while A was slow to see the drop).
    const onA = await joinedWithProfile(world, a, ALEX, 'Alex Mercer');
    const onB = await joinedWithProfile(world, b, ALEX, 'Alex Mercer');
    expect(departmentsAsked(world, ALEX)).toBe(1);
    expect((await changeDuty(b, onB, true, 1)).ok).toBe(true); // BCSO, on B
    const asked = departmentsAsked(world, ALEX);

    // The panel takes BCSO away; only A asks again.
    world.panel.controls.setRoles(ALEX, [LSPD_ROLES.member, '1187342095671230012']);
    onA.command('dutyrefresh');
    await a.until(() => slugsOf(profilesOf(a, onA).at(-1)).join() === 'lspd', 10_000, 'the new profile on A');
    await b.until(() => slugsOf(profilesOf(b, onB).at(-1)).join() === 'lspd', 10_000, 'the new profile on B');
    await b.until(
      () => b.events.some((event) => event.name === 'bridge:client:offDuty' && event.player === onB.id),
      10_000,
      'the duty B no longer allows',
    );

    expect(departmentsAsked(world, ALEX)).toBe(asked + 1);
    const offDuty = b.events.find((event) => event.name === 'bridge:client:offDuty' && event.player === onB.id);
    expect(offDuty?.args[0]).toMatchObject({ reason: 'department_removed' });
    for (const sim of [a, b]) expect(sim.errors).toEqual([]);
  });

  it('garbage under a profile key is set aside with one line: the panel is asked, and the copy written over it serves the others', async () => {
    const [world, [a, b, c]] = await communityOf(3);
    if (!a || !b || !c) throw new Error('three servers');
    const prefix = communityPrefix(world.server.url);
    const JAMIE = '1039284756102938475';
    const CASEY = '562018374659201837';
    await redis?.command('SET', `${prefix}profile:${ALEX}`, 'not json {', 'PX', '60000');
    await redis?.command(
      'SET',
      `${prefix}profile:${JAMIE}`,
      JSON.stringify({ ttlMs: 300_000, entry: { kind: 'found', chatId: JAMIE, departments: [{ id: 'x' }] } }),
      'PX',
      '60000',
    );
    await redis?.command('HSET', `${prefix}profile:${CASEY}`, 'departments', '[]');

    await joinedWithProfile(world, a, ALEX, 'Alex Mercer');
    await joinedWithProfile(world, a, JAMIE, 'Jamie Rivera');
    await joinedWithProfile(world, a, CASEY, 'Casey Novak');
    expect([ALEX, JAMIE, CASEY].map((chat) => departmentsAsked(world, chat))).toEqual([1, 1, 1]);
    const warnings = world
      .consoleOf(a)
      .split('\n')
      .filter((line) => line.includes('set aside'));
    expect(warnings).toEqual([
      expect.stringMatching(new RegExp(`^WARN: Redis holds something under ${prefix}profile:${ALEX} that is not JSON`)),
      expect.stringMatching(
        new RegExp(`^WARN: Redis holds something under ${prefix}profile:${JAMIE} that does not read`),
      ),
      expect.stringMatching(new RegExp(`^WARN: Redis holds a hash under ${prefix}profile:${CASEY}, not the string`)),
    ]);

    // What A wrote over the garbage serves B: no request more.
    for (const [chat, name] of [
      [ALEX, 'Alex Mercer'],
      [JAMIE, 'Jamie Rivera'],
      [CASEY, 'Casey Novak'],
    ] as const) {
      await joinedWithProfile(world, b, chat, name);
    }
    expect([ALEX, JAMIE, CASEY].map((chat) => departmentsAsked(world, chat))).toEqual([1, 1, 1]);

    // Announcements that do not read: one line on each server that hears them, and nothing taken.
    await redis?.command('PUBLISH', `${prefix}profiles`, 'garbage');
    await redis?.command('PUBLISH', `${prefix}profiles`, JSON.stringify({ chatId: 42 }));
    await c.until(
      () => world.consoleOf(c).includes(`Redis holds something under ${prefix}profiles that is not JSON`),
      5_000,
      'the unreadable announcement',
    );
    await c.settle();
    const announced = world
      .consoleOf(c)
      .split('\n')
      .filter((line) => line.includes(`${prefix}profiles `));
    // One line per place it was found: the second unreadable announcement is not told again.
    expect(announced).toHaveLength(1);
    expect([ALEX, JAMIE, CASEY].map((chat) => departmentsAsked(world, chat))).toEqual([1, 1, 1]);
    for (const sim of [a, b, c]) expect(sim.errors).toEqual([]);
  });

  it('Redis killed and restarted empty: players are served meanwhile, and each server offers again what it holds', async () => {
    const [world, [a, b]] = await communityOf(2);
    if (!a || !b) throw new Error('two servers');
    const live = redis as RedisServer;
    await live.kill();
    await a.until(() => world.consoleOf(a).includes('is gone'), 10_000, 'the warning');
    // Without Redis, A serves its player from the panel.
    await joinedWithProfile(world, a, ALEX, 'Alex Mercer');
    expect(departmentsAsked(world, ALEX)).toBe(1);

    await live.restart();
    await a.until(() => world.consoleOf(a).includes('answers again'), 15_000, 'Redis back on A');
    await b.until(() => world.consoleOf(b).includes('answers again'), 15_000, 'Redis back on B');
    const key = `${communityPrefix(world.server.url)}profile:${ALEX}`;
    // A offers what it holds on the connection's return; frames pass until Redis has it (bounded, no sleep).
    for (let frame = 0; frame < 100 && Number(await live.command('EXISTS', key)) === 0; frame++) await a.tick();
    // A offered its player's profile to the empty Redis: B serves it without asking the panel.
    await joinedWithProfile(world, b, ALEX, 'Alex Mercer');
    expect(departmentsAsked(world, ALEX)).toBe(1);
    expect(Number(await live.command('PTTL', key))).toBeGreaterThan(0);
    for (const sim of [a, b]) expect(sim.errors).toEqual([]);
  });

  it('a slow Redis (every client paused) holds no profile: after the link timeout the panel answers', async () => {
    const [world, [a]] = await communityOf(1);
    if (!a) throw new Error('one server');
    // Redis answers nobody for 3 s (the test's own connection pauses every other client).
    await redis?.command('CLIENT', 'PAUSE', '3000', 'ALL');
    await joinedWithProfile(world, a, ALEX, 'Alex Mercer');
    expect(departmentsAsked(world, ALEX)).toBe(1);
    expect(a.errors).toEqual([]);
  });
});
