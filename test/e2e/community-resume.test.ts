// Issue 32 item 4, "Across a community": a shift held after its game crashed (Config.ResumeWindowMs) is the account's,
// not one server's. Its owner record in Redis says it is held and until when (Redis's clock); a server where the
// account joins within the window takes it over with a fenced claim and the panel hears nothing; not back anywhere in
// time, exactly one fenced `off` ends it when the window ends, from the holder or, if the holder died, from a peer.
// Two simulated servers, one mock panel, one real redis-server: the panel's duty book is the witness.
// This file: the player back on another server in time, the holder still running.
import { describe, expect, it } from 'vitest';
import { redisAvailable } from '../support/redis-server.js';
import { bridgeOf } from './support/bridge-exports.js';
import { dutyCallsOf, joined, linesOf, openAt, ownerRecord } from './support/community-duty.js';
import { exportsOf, heldIn, heldShiftCommunity, JAMIE, onDutyEventsOf, WINDOW_MS } from './support/held-shift.js';

const { onDutyOnA } = heldShiftCommunity();

describe.skipIf(!redisAvailable())('a held shift across the community: back on another server in time', () => {
  it('a crash on A and a rejoin on B within the window: B takes the shift over, resumed, and the panel hears no off and no on', async () => {
    const { redis, community, a, b, onA } = await onDutyOnA();
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
});
