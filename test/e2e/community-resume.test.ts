// Issue 32 item 4, "Across a community": a shift held after its game crashed (Config.ResumeWindowMs) is the account's,
// not one server's. Its owner record in Redis says it is held and until when (Redis's clock); a server where the
// account joins within the window takes it over with a fenced claim and the panel hears nothing; not back anywhere in
// time, exactly one fenced `off` ends it when the window ends, from the holder or, if the holder died, from a peer.
// Two simulated servers, one mock panel, one real redis-server: the panel's duty book is the witness.
import { describe, expect, it } from 'vitest';
import type { BridgeServerExports } from '../../shared/events.js';
import type { Sim } from '../../sim/index.js';
import { ONE_DEPARTMENT } from '../mock-panel/support/demo-users.js';
import { type RedisServer, redisAvailable } from '../support/redis-server.js';
import { bridgeOf } from './support/bridge-exports.js';
import {
  claimedIn,
  communityPerTest,
  dutyCallsOf,
  inCommunity,
  joined,
  LIVENESS_CONVAR,
  linesOf,
  onDuty,
  openAt,
  ownerRecord,
  TEST_LIVENESS_MS,
} from './support/community-duty.js';

const world = communityPerTest();

const JAMIE = ONE_DEPARTMENT;
const WINDOW_MS = 12_000;
const withLiveness = () => ({ [LIVENESS_CONVAR]: String(TEST_LIVENESS_MS) });
const exportsOf = (sim: Sim) => sim.exports.bridge as BridgeServerExports;
const onDutyEventsOf = (sim: Sim) =>
  sim.events.filter((event) => event.name === 'bridge:server:playerOnDuty').map((event) => event.args);

async function twoServers() {
  const redis = await world.redisServer();
  const community = await world.simCommunity({
    servers: 2,
    redisUrl: redis.url(),
    config: `Config.ResumeWindowMs = ${WINDOW_MS}`,
    convarsOf: withLiveness,
  });
  const [a, b] = community.sims as [Sim, Sim];
  await Promise.all([inCommunity(a), inCommunity(b)]);
  return { redis, community, a, b };
}

/** Until the account's owner record says its shift is held, and until when (ms on Redis's clock). */
async function heldIn(redis: RedisServer): Promise<void> {
  for (let tries = 0; tries < 250; tries++) {
    if (typeof (await ownerRecord(redis, JAMIE))?.held === 'string') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the owner record never said the shift is held');
}

describe.skipIf(!redisAvailable())('a held shift across the community (Config.ResumeWindowMs)', () => {
  it('a crash on A and a rejoin on B within the window: B takes the shift over, resumed, and the panel hears no off and no on', async () => {
    const { redis, community, a, b } = await twoServers();
    const onA = await joined(community, a, JAMIE);
    await onDuty(a, onA);
    await claimedIn(redis, JAMIE);
    const { since, departmentId, rankId } = exportsOf(a).GetPlayerDuty(onA.id);

    onA.crash();
    await heldIn(redis);

    const onB = await joined(community, b, JAMIE);
    await b.until(() => bridgeOf(onB).IsPlayerOnDuty(), 10_000, 'B to resume the shift');
    expect(exportsOf(b).GetPlayerDuty(onB.id)).toMatchObject({ onDuty: true, departmentId, rankId, since });
    expect(onDutyEventsOf(b)).toEqual([[onB.id, departmentId, rankId, true]]);
    // A lets its held shift go without an off; its window running out later sends nothing.
    await a.until(() => linesOf(a, /is another server's now: it ends here without an off/).length === 1, 10_000, 'A');
    await a.advance(WINDOW_MS + 2_000);
    await b.settle();
    expect(dutyCallsOf(community)).toEqual(['on']);
    expect(openAt(community, JAMIE)).toHaveLength(1);
    expect(await ownerRecord(redis, JAMIE)).toMatchObject({ state: 'live', server: expect.any(String) });
    expect((await ownerRecord(redis, JAMIE))?.held).toBeUndefined();
    for (const sim of [a, b]) expect(sim.errors).toEqual([]);
  }, 60_000);

  it('not back anywhere within the window: exactly one off when it ends, and a later join on B is not on duty', async () => {
    const { redis, community, a, b } = await twoServers();
    const onA = await joined(community, a, JAMIE);
    await onDuty(a, onA);
    await claimedIn(redis, JAMIE);

    onA.crash();
    await a.settle();
    expect(openAt(community, JAMIE)).toHaveLength(1);
    await a.until(() => openAt(community, JAMIE).length === 0, WINDOW_MS + 10_000, 'the window to end');
    const onB = await joined(community, b, JAMIE);
    await b.advance(2_000);
    expect(bridgeOf(onB).IsPlayerOnDuty()).toBe(false);
    expect(dutyCallsOf(community)).toEqual(['on', 'off']);
    for (const sim of [a, b]) expect(sim.errors).toEqual([]);
  }, 60_000);

  it('the holder killed during the window: a peer ends the shift when the window ends, not at the lapse', async () => {
    const { redis, community, a, b } = await twoServers();
    const onA = await joined(community, a, JAMIE);
    await onDuty(a, onA);
    await claimedIn(redis, JAMIE);

    onA.crash();
    await heldIn(redis);
    await a.kill();
    // B finds A lapsed within a few liveness periods; the shift stays open until its window ends.
    await b.until(
      () =>
        linesOf(b, /^INFO: .*stopped renewing .* this server ends it at the panel when its window does/).length === 1,
      4 * TEST_LIVENESS_MS,
      'B to find A lapsed',
    );
    expect(openAt(community, JAMIE)).toHaveLength(1);
    await b.until(() => openAt(community, JAMIE).length === 0, WINDOW_MS + 10_000, 'B to end it');
    expect(dutyCallsOf(community)).toEqual(['on', 'off']);
    expect(b.errors).toEqual([]);
  }, 60_000);

  it('the holder killed during the window and the player back on B in time: B takes the shift over, and its end at the window is not sent', async () => {
    const { redis, community, a, b } = await twoServers();
    const onA = await joined(community, a, JAMIE);
    await onDuty(a, onA);
    await claimedIn(redis, JAMIE);

    onA.crash();
    await heldIn(redis);
    await a.kill();
    await b.until(
      () => linesOf(b, /this server ends it at the panel when its window does/).length === 1,
      4 * TEST_LIVENESS_MS,
      'B to find A lapsed',
    );
    const onB = await joined(community, b, JAMIE);
    await b.until(() => bridgeOf(onB).IsPlayerOnDuty(), 10_000, 'B to resume the shift');
    await b.advance(WINDOW_MS);
    await b.settle();
    expect(bridgeOf(onB).IsPlayerOnDuty()).toBe(true);
    expect(dutyCallsOf(community)).toEqual(['on']);
    expect(openAt(community, JAMIE)).toHaveLength(1);
    expect(b.errors).toEqual([]);
  }, 60_000);
});
