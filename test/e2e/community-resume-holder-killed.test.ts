// Issue 32 item 4, "Across a community": a shift held after its game crashed (Config.ResumeWindowMs) is the account's,
// not one server's. Its owner record in Redis says it is held and until when (Redis's clock); a server where the
// account joins within the window takes it over with a fenced claim and the panel hears nothing; not back anywhere in
// time, exactly one fenced `off` ends it when the window ends, from the holder or, if the holder died, from a peer.
// Two simulated servers, one mock panel, one real redis-server: the panel's duty book is the witness.
// This file: the player back on another server in time, after the holder was killed.
import { describe, expect, it } from 'vitest';
import { redisAvailable } from '../support/redis-server.js';
import { bridgeOf } from './support/bridge-exports.js';
import { dutyCallsOf, joined, linesOf, openAt, TEST_LIVENESS_MS } from './support/community-duty.js';
import { heldIn, heldShiftCommunity, JAMIE, WINDOW_MS } from './support/held-shift.js';

const { onDutyOnA } = heldShiftCommunity();

describe.skipIf(!redisAvailable())('a held shift across the community: back on another server in time', () => {
  it('the holder killed during the window and the player back on B in time: B takes the shift over, and its end at the window is not sent', async () => {
    const { redis, community, a, b, onA } = await onDutyOnA();

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
