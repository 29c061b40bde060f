// Issue 32 item 4, "Across a community": a shift held after its game crashed (Config.ResumeWindowMs) is the account's,
// not one server's. Its owner record in Redis says it is held and until when (Redis's clock); a server where the
// account joins within the window takes it over with a fenced claim and the panel hears nothing; not back anywhere in
// time, exactly one fenced `off` ends it when the window ends, from the holder or, if the holder died, from a peer.
// Two simulated servers, one mock panel, one real redis-server: the panel's duty book is the witness.
// This file: nobody back in time, and the holder killed: a peer sends the one off when the window ends.
import { describe, expect, it } from 'vitest';
import { redisAvailable } from '../support/redis-server.js';
import { dutyCallsOf, linesOf, openAt, TEST_LIVENESS_MS } from './support/community-duty.js';
import { heldIn, heldShiftCommunity, JAMIE, WINDOW_MS } from './support/held-shift.js';

const { onDutyOnA } = heldShiftCommunity();

describe.skipIf(!redisAvailable())('a held shift across the community: the window ends', () => {
  it('the holder killed during the window: a peer ends the shift when the window ends, not at the lapse', async () => {
    const { redis, community, a, b, onA } = await onDutyOnA();

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
});
