// Issue 32 item 4, "Across a community": a shift held after its game crashed (Config.ResumeWindowMs) is the account's,
// not one server's. Its owner record in Redis says it is held and until when (Redis's clock); a server where the
// account joins within the window takes it over with a fenced claim and the panel hears nothing; not back anywhere in
// time, exactly one fenced `off` ends it when the window ends, from the holder or, if the holder died, from a peer.
// Two simulated servers, one mock panel, one real redis-server: the panel's duty book is the witness.
// This file: nobody back in time, so the holder sends the one off when the window ends.
import { describe, expect, it } from 'vitest';
import { redisAvailable } from '../support/redis-server.js';
import { bridgeOf } from './support/bridge-exports.js';
import { dutyCallsOf, joined, openAt } from './support/community-duty.js';
import { heldShiftCommunity, JAMIE, WINDOW_MS } from './support/held-shift.js';

const { onDutyOnA } = heldShiftCommunity();

describe.skipIf(!redisAvailable())('a held shift across the community: the window ends', () => {
  it('not back anywhere within the window: exactly one off when it ends, and a later join on B is not on duty', async () => {
    const { community, a, b, onA } = await onDutyOnA();

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
});
