// A server that crashes in the moment between the panel taking its `on` and its claim reaching Redis (found by the
// chaos test, test/chaos/: `on(0, Alex, 1), crash(0)`): Redis has no claim of that shift, yet a peer must end it at the
// panel when the server's liveness lapses, as it ends any other shift of a crashed server.
import { describe, expect, it } from 'vitest';
import type { Sim } from '../../sim/index.js';
import { ONE_DEPARTMENT, SAFR } from '../mock-panel/support/demo-users.js';
import { redisAvailable } from '../support/redis-server.js';
import {
  communityPerTest,
  dutyCallsOf,
  inCommunity,
  joined,
  linesOf,
  openAt,
  ownerRecord,
  TEST_LIVENESS_MS,
  withTestLiveness,
} from './support/community-duty.js';

const world = communityPerTest();
const JAMIE = ONE_DEPARTMENT;

describe.skipIf(!redisAvailable())('a crash before the claim reached Redis', () => {
  it('a peer ends the shift the panel took just before the crash, and the crashed server sends nothing more when back', async () => {
    const redis = await world.redisServer();
    const community = await world.simCommunity({
      servers: 2,
      redisUrl: redis.url(),
      convarsOf: withTestLiveness,
    });
    const [a, b] = community.sims as [Sim, Sim];
    await Promise.all([inCommunity(a), inCommunity(b)]);
    const player = await joined(community, a, JAMIE);
    // A job script puts the player on duty; the server dies as the panel's answer comes back.
    const answer = await a.exports.bridge.SetPlayerDuty(player.id, true, SAFR.id);
    await a.kill();
    expect(answer).toMatchObject({ ok: true, onDuty: true });
    expect(openAt(community, JAMIE)).toEqual([expect.objectContaining({ departmentId: SAFR.id })]);
    expect(await ownerRecord(redis, JAMIE)).toBeNull();

    await b.until(() => openAt(community, JAMIE).length === 0, 4 * TEST_LIVENESS_MS, 'B to end the shift');
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
});
