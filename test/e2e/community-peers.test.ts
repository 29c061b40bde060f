// Liveness across the community (issue 30): a server that stops renewing its liveness on Redis's clock has its
// shifts ended at the panel by a surviving server, fenced; a server that was only cut off from Redis puts the panel
// right again once it is back; and an `off` that Redis cannot confirm waits for it, never sent on a guess. The server
// only cut off is in community-peers-cut-off.test.ts, so that vitest runs the two files side by side.
import { describe, expect, it } from 'vitest';
import type { Sim } from '../../sim/index.js';
import { ONE_DEPARTMENT } from '../mock-panel/support/demo-users.js';
import { redisAvailable } from '../support/redis-server.js';
import { changeDuty } from './support/bridge-exports.js';
import {
  claimedIn,
  communityPerTest,
  dutyCallsOf,
  gameOnDuty,
  inCommunity,
  joined,
  linesOf,
  offDuty,
  onDuty,
  openAt,
  statusOf,
  TEST_LIVENESS_MS,
  withTestLiveness,
} from './support/community-duty.js';

const world = communityPerTest();

const JAMIE = ONE_DEPARTMENT;

describe.skipIf(!redisAvailable())('liveness across the community', () => {
  it('a crashed server’s shift is ended at the panel by a surviving server, and the crashed server sends nothing when back', async () => {
    const redis = await world.redisServer();
    const community = await world.simCommunity({
      servers: 2,
      redisUrl: redis.url(),
      convarsOf: withTestLiveness,
    });
    const [a, b] = community.sims as [Sim, Sim];
    await Promise.all([inCommunity(a), inCommunity(b)]);
    await onDuty(a, await joined(community, a, JAMIE));
    await claimedIn(redis, JAMIE);

    await a.kill();
    await b.until(() => openAt(community, JAMIE).length === 0, 3 * TEST_LIVENESS_MS, 'B to end it');
    expect(community.panel.controls.sessions(JAMIE)).toEqual([expect.objectContaining({ endedBy: 'off' })]);
    expect(linesOf(b, /stopped renewing/)).toEqual([
      expect.stringMatching(/^INFO: server [0-9a-f]{16} stopped renewing its liveness .*1 duty\(ies\)/),
    ]);

    await a.restart();
    await inCommunity(a);
    await a.until(() => linesOf(a, /ended without stopping/).length > 0, 10_000, 'A’s crash recovery');
    await a.advance(2_000);
    expect(dutyCallsOf(community)).toEqual(['on', 'off']);
    for (const sim of [a, b]) expect(sim.errors).toEqual([]);
  }, 30_000);

  it('an off that Redis cannot confirm waits for it (one WARN, listed by bridge status), and is then not sent when another server took the account', async () => {
    const redis = await world.redisServer();
    const community = await world.simCommunity({
      servers: 2,
      redisUrl: redis.url(),
      convarsOf: withTestLiveness,
    });
    const { panel } = community;
    const [a, b] = community.sims as [Sim, Sim];
    await Promise.all([inCommunity(a), inCommunity(b)]);
    const onA = await joined(community, a, JAMIE);
    await onDuty(a, onA);
    // A's off cannot reach the panel: it is kept in A's KVP when A dies.
    panel.controls.setOutage({ mode: 'reset', rate: 1 });
    await changeDuty(a, onA, false);
    await a.kill();
    panel.controls.clearFaults();
    const onB = await joined(community, b, JAMIE);
    await onDuty(b, onB);

    // Redis goes too; A comes back with its kept off.
    await redis.kill();
    await a.restart();
    await a.until(() => linesOf(a, /the panel at .* answers/).length === 2, 10_000, 'A’s start-up probe');
    await a.advance(3_000);
    // B's shift is still open: A's kept off was not sent blind.
    expect(openAt(community, JAMIE)).toEqual([expect.objectContaining({ departmentId: 3 })]);
    expect(linesOf(a, /wait for Redis/)).toEqual([
      expect.stringMatching(/^WARN: 1 duty call\(s\) wait for Redis \(BRIDGE_REDIS_URL\) to confirm/),
    ]);
    expect(statusOf(a).filter((line) => /held|chat account/.test(line))).toEqual([
      expect.stringMatching(/^ +held for Redis: 1 call\(s\)$/),
      expect.stringMatching(/^ +off of chat account \d+ \(department 3\), kept by the last run, for \d+ s$/),
    ]);

    // Back empty: B writes its claim again; A's off finds B's shift and is not sent.
    await redis.restart();
    await a.until(() => linesOf(a, /is not sent/).length > 0, 20_000, 'A’s held off to settle');
    await a.advance(1_000);
    expect(openAt(community, JAMIE)).toEqual([expect.objectContaining({ departmentId: 3 })]);
    expect(gameOnDuty(onB)).toBe(true);
    await offDuty(b, onB);
    await b.until(() => openAt(community, JAMIE).length === 0, 10_000, 'B’s off');
  }, 40_000);

  it('bridge release sends the calls held for Redis without its confirmation, and says what that risks', async () => {
    const redis = await world.redisServer();
    const community = await world.simCommunity({
      servers: 1,
      redisUrl: redis.url(),
      convarsOf: withTestLiveness,
    });
    const [a] = community.sims as [Sim];
    await inCommunity(a);
    const onA = await joined(community, a, JAMIE);
    await onDuty(a, onA);
    await redis.kill();
    await a.until(() => linesOf(a, /is gone/).length > 0, 10_000, 'Redis gone');
    await offDuty(a, onA);
    await a.until(() => linesOf(a, /wait for Redis/).length > 0, 10_000, 'the held off');
    expect(openAt(community, JAMIE)).toHaveLength(1);

    const before = a.console.length;
    a.command('bridge release');
    const replies = a.console.slice(before).map((line) => line.text);
    expect(replies).toEqual(
      expect.arrayContaining([expect.stringMatching(/^released 1 duty call\(s\) held for Redis.*another server/)]),
    );
    await a.until(() => openAt(community, JAMIE).length === 0, 10_000, 'the released off');
    expect(dutyCallsOf(community)).toEqual(['on', 'off']);
    expect(linesOf(a, /without Redis's confirmation/)).toEqual([expect.stringMatching(/^WARN: /)]);
  }, 30_000);
});
