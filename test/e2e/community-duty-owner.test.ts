// Duty belongs to the chat account across the community (issue 25 item 3, fenced since issue 30): two simulated
// servers, one mock panel, one real Redis. The panel's duty book is the witness: each shift is one `on` and one `off`
// there, whatever crashes, in whatever order, and a server never ends a duty another server has taken since. A server
// back from a crash that finds another server holding the account asks it to send its `on` again (its own may have
// reached the panel later): a no-op at the panel, so these tests count sessions, not calls, where that happens.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sim, SimPlayer } from '../../sim/index.js';
import { ONE_DEPARTMENT } from '../mock-panel/support/demo-users.js';
import { type RedisServer, redisAvailable, startRedisServer } from '../support/redis-server.js';
import { bridgeOf, changeDuty } from './support/bridge-exports.js';
import { type SimCommunity, type SimCommunityOptions, startSimCommunity } from './support/community.js';
import { withTestLiveness } from './support/community-duty.js';

let community: SimCommunity | undefined;
let redis: RedisServer | undefined;
/** The community of the test that just ran: its failure hook runs after afterEach. */
let ran: SimCommunity | undefined;
beforeEach(({ onTestFailed }) => {
  // What each server said, to read a failure by.
  onTestFailed(() => {
    for (const [index, sim] of (ran?.sims ?? []).entries()) {
      process.stderr.write(`server ${index}:\n${ran?.consoleOf(sim)}\n`);
    }
  });
});
afterEach(async () => {
  ran = community;
  await community?.close();
  await redis?.stop();
  community = undefined;
  redis = undefined;
});

const JAMIE = ONE_DEPARTMENT;
/** A server back from a crash waits a renewal or two to see whether its last run is alive: short ones here. */
const start = (options: SimCommunityOptions) => startSimCommunity({ ...options, convarsOf: withTestLiveness });

function world(): SimCommunity {
  if (!community) throw new Error('no community');
  return community;
}

const linesOf = (sim: Sim, pattern: RegExp): string[] =>
  sim.console.map((line) => line.text).filter((text) => pattern.test(text));

async function inCommunity(sim: Sim): Promise<void> {
  await sim.until(() => linesOf(sim, /one of a community on Redis/).length > 0, 10_000, 'Redis');
}

async function joined(sim: Sim, chat = JAMIE): Promise<SimPlayer> {
  const player = await world().join(sim, chat, 'Jamie Rivera');
  await sim.until(() => world().hasProfile(sim, player), 10_000, 'the profile');
  return player;
}

async function onDuty(sim: Sim, player: SimPlayer): Promise<void> {
  expect(await changeDuty(sim, player, true)).toMatchObject({ ok: true, onDuty: true });
}

async function offDuty(sim: Sim, player: SimPlayer): Promise<void> {
  expect(await changeDuty(sim, player, false)).toMatchObject({ ok: true, onDuty: false });
}

const sessions = () => world().panel.controls.sessions(JAMIE);
/** Every duty call the panel answered, from any server (the tests use one account). */
const dutyCalls = () =>
  world()
    .panel.controls.requests()
    .filter((request) => request.path.includes('/duty/') && request.status === 200)
    .map((request) => request.path.replace(/^.*\/duty\//, ''));
const offDutyEventsOf = (sim: Sim, player: SimPlayer) =>
  sim.events
    .filter((event) => event.name === 'bridge:client:offDuty' && event.player === player.id)
    .map((event) => event.args);

async function sessionsSettle(sim: Sim, until: () => boolean, what: string): Promise<void> {
  await sim.until(until, 20_000, what);
  await sim.settle();
}

describe.skipIf(!redisAvailable())('duty across the community (two servers, one panel, one Redis)', () => {
  it('a crashed server ends only the duties it still owns: the duty the player took on another server since stays open', async () => {
    redis = await startRedisServer();
    community = await start({ servers: 2, redisUrl: redis.url() });
    const [a, b] = community.sims as [Sim, Sim];
    await Promise.all([inCommunity(a), inCommunity(b)]);

    await onDuty(a, await joined(a));
    // Server A dies without its stop; the player comes back on server B and goes on duty there.
    await a.kill();
    const onB = await joined(b);
    await onDuty(b, onB);
    expect(sessions()).toEqual([expect.objectContaining({ endedAt: null })]);

    await a.restart();
    await sessionsSettle(
      a,
      () => linesOf(a, /is not sent/).length > 0 || sessions().some((session) => session.endedAt !== null),
      'the crash recovery',
    );
    // B's duty is still open at the panel: A's recovery sent no `off`.
    expect(sessions()).toEqual([expect.objectContaining({ endedAt: null })]);
    expect(linesOf(a, /is not sent/)).toEqual([
      expect.stringMatching(
        /^INFO: the off of chat account \d+ is not sent: server [0-9a-f]{16} holds the account now$/,
      ),
    ]);

    await offDuty(b, onB);
    await sessionsSettle(b, () => sessions().every((session) => session.endedAt !== null), 'the off');
    // One shift at the panel, ended by B's off; A's recovery sent nothing more.
    expect(sessions()).toEqual([expect.objectContaining({ endedBy: 'off' })]);
    for (const sim of [a, b]) expect(sim.errors).toEqual([]);
  }, 60_000);

  it('a crashed server still ends the duty it owns: one on and one off at the panel', async () => {
    redis = await startRedisServer();
    community = await start({ servers: 1, redisUrl: redis.url() });
    const [a] = community.sims as [Sim];
    await inCommunity(a);
    await onDuty(a, await joined(a));
    await a.kill();
    await a.restart();
    await sessionsSettle(a, () => sessions().every((session) => session.endedAt !== null), 'the crash recovery');

    expect(sessions()).toEqual([expect.objectContaining({ endedBy: 'off' })]);
    expect(dutyCalls()).toEqual(['on', 'off']);
    expect(linesOf(a, /ended without stopping/)).toEqual([
      "INFO: the last run ended without stopping (a crash?) and left 1 duty(ies) open at the panel; each is ended once Redis confirms it is still this server's",
    ]);
  }, 60_000);

  it('a session another server replaced (a ghost, or a switch A was slow to see) goes off duty there without an off', async () => {
    redis = await startRedisServer();
    community = await start({ servers: 2, redisUrl: redis.url() });
    const [a, b] = community.sims as [Sim, Sim];
    await Promise.all([inCommunity(a), inCommunity(b)]);
    const ghost = await joined(a);
    await onDuty(a, ghost);

    // The same chat account on server B while A still has its session.
    const onB = await joined(b);
    await onDuty(b, onB);
    await a.until(() => offDutyEventsOf(a, ghost).length > 0, 10_000, 'A to end the ghost’s duty');
    await a.settle();

    expect(offDutyEventsOf(a, ghost)).toEqual([[{ departmentId: expect.any(Number), reason: 'replaced' }]]);
    expect(sessions()).toEqual([expect.objectContaining({ endedAt: null })]);
    // A's session leaves later: nothing more reaches the panel from A.
    ghost.drop();
    await a.settle();
    await offDuty(b, onB);
    await sessionsSettle(b, () => sessions().every((session) => session.endedAt !== null), 'the off');
    expect(dutyCalls()).toEqual(['on', 'on', 'off']);
    expect(sessions()).toEqual([expect.objectContaining({ endedBy: 'off' })]);
    for (const sim of [a, b]) expect(sim.errors).toEqual([]);
  }, 60_000);

  it('Redis gone while the player goes on duty on B: B claims the account when Redis is back, and A, back from a crash, leaves it alone', async () => {
    redis = await startRedisServer();
    community = await start({ servers: 2, redisUrl: redis.url() });
    const [a, b] = community.sims as [Sim, Sim];
    await Promise.all([inCommunity(a), inCommunity(b)]);
    await onDuty(a, await joined(a));
    await a.kill();
    await redis.kill();
    const onB = await joined(b);
    await onDuty(b, onB);
    await redis.restart();
    await b.until(() => linesOf(b, /answers again/).length > 0, 15_000, 'Redis back on B');

    await a.restart();
    await sessionsSettle(a, () => linesOf(a, /is not sent/).length > 0, 'the crash recovery');
    expect(sessions()).toEqual([expect.objectContaining({ endedAt: null })]);
    await offDuty(b, onB);
    await sessionsSettle(b, () => sessions().every((session) => session.endedAt !== null), 'the off');
    // One session at the panel, ended by B's off: B's `on` (the same department and rank) changed nothing there, and
    // A sent nothing (the `on` B may send again at A's request, in case A's reached the panel later, is a no-op too).
    expect(sessions()).toEqual([expect.objectContaining({ endedBy: 'off' })]);
  }, 60_000);

  it('Redis gone while B takes the account A holds: A learns it when Redis is back and ends its duty without an off', async () => {
    redis = await startRedisServer();
    community = await start({ servers: 2, redisUrl: redis.url() });
    const [a, b] = community.sims as [Sim, Sim];
    await Promise.all([inCommunity(a), inCommunity(b)]);
    const ghost = await joined(a);
    await onDuty(a, ghost);

    // Redis dies: B's claim cannot be written, and A hears nothing.
    await redis.kill();
    const onB = await joined(b);
    await onDuty(b, onB);
    expect(offDutyEventsOf(a, ghost)).toEqual([]);

    // Back, empty: each server writes again what it holds; B's claim (the later `on`) wins, A's duty ends at A, as
    // settled after the fault.
    await redis.restart();
    await a.until(() => offDutyEventsOf(a, ghost).length > 0, 20_000, 'A to end the ghost’s duty');
    await a.settle();
    expect(offDutyEventsOf(a, ghost)).toEqual([[{ departmentId: expect.any(Number), reason: 'superseded' }]]);
    expect(sessions()).toEqual([expect.objectContaining({ endedAt: null })]);

    await offDuty(b, onB);
    await sessionsSettle(b, () => sessions().every((session) => session.endedAt !== null), 'the off');
    expect(dutyCalls()).toEqual(['on', 'on', 'off']);
    expect(sessions()).toEqual([expect.objectContaining({ endedBy: 'off' })]);
    for (const sim of [a, b]) {
      expect(linesOf(sim, /BRIDGE_REDIS_URL/)).toEqual([
        expect.stringMatching(/^INFO: this server is one of a community on Redis/),
        expect.stringMatching(/^WARN: Redis at .* \(BRIDGE_REDIS_URL\) is gone/),
        expect.stringMatching(/^INFO: Redis at .* \(BRIDGE_REDIS_URL\) answers again/),
      ]);
    }
  }, 60_000);

  it('a crashed server’s kept on, never accepted, does not end the duty the player took on another server since', async () => {
    redis = await startRedisServer();
    community = await start({ servers: 2, redisUrl: redis.url() });
    const { panel } = community;
    const [a, b] = community.sims as [Sim, Sim];
    await Promise.all([inCommunity(a), inCommunity(b)]);
    const onA = await joined(a);
    // A's `on` never gets an answer: it is kept in A's outbox when A dies.
    panel.controls.setOutage({ mode: 'reset', rate: 1 });
    const options = bridgeOf(onA).GetDutyOptions() as { departments: Array<{ setActive(): boolean }> };
    options.departments[0]?.setActive();
    bridgeOf(onA).UpdatePlayerDuty(true);
    await a.until(
      () => panel.controls.requests().some((request) => request.path.endsWith('/duty/on')),
      10_000,
      'A’s on to reach the panel',
    );
    await a.kill();
    panel.controls.clearFaults();
    const onB = await joined(b);
    await onDuty(b, onB);

    await a.restart();
    await sessionsSettle(
      a,
      () => linesOf(a, /is not sent/).length > 0 || sessions().some((s) => s.endedAt !== null),
      'A’s kept calls',
    );
    expect(sessions()).toEqual([expect.objectContaining({ endedAt: null })]);
    expect(linesOf(a, /is not sent/)).toEqual([
      expect.stringMatching(
        /^INFO: the off of chat account \d+ is not sent: server [0-9a-f]{16} holds the account now$/,
      ),
    ]);
    await offDuty(b, onB);
    await sessionsSettle(b, () => sessions().every((session) => session.endedAt !== null), 'the off');
    expect(sessions()).toEqual([expect.objectContaining({ endedBy: 'off' })]);
  }, 60_000);

  it('a BRIDGE_REDIS_URL that does not read: the server runs alone, and its crash recovery ends what it left open as before', async () => {
    community = await start({ servers: 1, redisUrl: 'http://127.0.0.1:6379' });
    const [a] = community.sims as [Sim];
    await onDuty(a, await joined(a));
    await a.kill();
    await a.restart();
    await sessionsSettle(a, () => sessions().every((session) => session.endedAt !== null), 'the crash recovery');

    expect(dutyCalls()).toEqual(['on', 'off']);
    expect(linesOf(a, /ended without stopping/)).toEqual([
      'INFO: the last run ended without stopping (a crash?) and left 1 duty(ies) open at the panel; they are ended now',
    ]);
  }, 60_000);
});
