// Duty belongs to the chat account across the community (issue 25 item 3, fenced since issue 30): the two tests of
// community-duty-owner.test.ts that wait longest in real time, a resume window and Redis's return, in a file of their
// own so that vitest runs them beside the rest. Two simulated servers (or one), one mock panel, one real Redis; the
// panel's duty book is the witness.
import { describe, expect, it } from 'vitest';
import type { Sim } from '../../sim/index.js';
import { ONE_DEPARTMENT } from '../mock-panel/support/demo-users.js';
import { redisAvailable } from '../support/redis-server.js';
import { bridgeOf } from './support/bridge-exports.js';
import {
  communityPerTest,
  dutyCallsOf,
  inCommunity,
  joined,
  linesOf,
  onDuty,
  withTestLiveness,
} from './support/community-duty.js';

const JAMIE = ONE_DEPARTMENT;
const world = communityPerTest();

describe.skipIf(!redisAvailable())('duty across the community (two servers, one panel, one Redis)', () => {
  it('a shift held on A after a crash (Config.ResumeWindowMs): the player goes on duty on B, and A lets the held shift go without an off', async () => {
    const redis = await world.redisServer();
    const community = await world.simCommunity({
      servers: 2,
      redisUrl: redis.url(),
      config: 'Config.ResumeWindowMs = 8000',
    });
    const [a, b] = community.sims as [Sim, Sim];
    await Promise.all([inCommunity(a), inCommunity(b)]);
    const onA = await joined(community, a, JAMIE);
    await onDuty(a, onA);
    onA.crash();
    await a.settle();

    const onB = await joined(community, b, JAMIE);
    await onDuty(b, onB);
    // A hears B's claim and lets its held shift go, without an off.
    await a.until(() => linesOf(a, /is another server's now: it ends here without an off/).length === 1, 10_000, 'A');
    // A's window runs out later: B's shift is the account's by then, so A sends nothing.
    await a.advance(10_000);
    await a.settle();
    // Only ons: B's, and its restates when the two ons were close enough to reach the panel in either order (here
    // often within 250 ms), each a no-op there.
    expect(dutyCallsOf(community)).toEqual(expect.arrayContaining(['on', 'on']));
    expect(dutyCallsOf(community).filter((call) => call !== 'on')).toEqual([]);
    // B's `on` names the department and rank A's shift has: the panel's session simply goes on.
    expect(community.panel.controls.sessions(JAMIE)).toEqual([expect.objectContaining({ endedAt: null })]);
    expect(bridgeOf(onB).IsPlayerOnDuty()).toBe(true);
    for (const sim of [a, b]) expect(sim.errors).toEqual([]);
  }, 60_000);

  it('Redis gone at crash recovery: the record is kept and nothing sent (one WARN); settled when Redis is back (one INFO)', async () => {
    const redis = await world.redisServer();
    // A server back from a crash waits a renewal or two to see whether its last run is alive: short ones here.
    const community = await world.simCommunity({
      servers: 1,
      redisUrl: redis.url(),
      convarsOf: withTestLiveness,
    });
    const [a] = community.sims as [Sim];
    const sessions = () => community.panel.controls.sessions(JAMIE);
    await inCommunity(a);
    await onDuty(a, await joined(community, a, JAMIE));
    await a.kill();
    await redis.kill();
    await a.restart();
    await a.until(() => linesOf(a, /wait for Redis/).length > 0, 15_000, 'the warning');
    expect(sessions()).toEqual([expect.objectContaining({ endedAt: null })]);
    expect(dutyCallsOf(community)).toEqual(['on']);

    // Back, and empty (nothing was persisted): nobody claims the account within the grace, so the off is A's.
    await redis.restart();
    await a.until(() => sessions().every((session) => session.endedAt !== null), 20_000, 'the recovery');
    await a.settle();
    expect(dutyCallsOf(community)).toEqual(['on', 'off']);
    expect(linesOf(a, /duty\(ies\)|duty call/)).toEqual([
      "INFO: the last run ended without stopping (a crash?) and left 1 duty(ies) open at the panel; each is ended once Redis confirms it is still this server's",
      expect.stringMatching(/^WARN: 1 duty call\(s\) wait for Redis \(BRIDGE_REDIS_URL\) to confirm/),
      'INFO: Redis confirms the duty calls again: those it held go on',
    ]);
  }, 60_000);
});
