// Issue 23, item 5, end to end: a rate-limit window learned from the panel's headers waits at most the cap that
// `Retry-After` gets. The built bridge in the simulator; every duty answer of the panel (on a loopback socket) says
// its window is a day long and spent, and not when it resets.
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { DutyOutcome } from '../../shared/events.js';
import type { SimPlayer } from '../../sim/index.js';
import { ONE_DEPARTMENT, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { bridgeOf } from './support/bridge-exports.js';
import { startWorld, type World } from './support/world.js';

const A_DAY = { 'RateLimit-Policy': '200;w=86400', 'RateLimit-Limit': '200', 'RateLimit-Remaining': '0' };
/** `Retry-After`'s cap: the longest the bridge waits on anybody's word. */
const LONGEST_WAIT_MS = 60_000;

describe('a panel whose rate-limit policy is a spent window of a day, without a reset', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  async function duty(player: SimPlayer, status: boolean): Promise<DutyOutcome> {
    const outcomes: DutyOutcome[] = [];
    if (status) {
      const options = bridgeOf(player).GetDutyOptions() as { departments: Array<{ setActive(): boolean }> };
      options.departments[0]?.setActive();
    }
    bridgeOf(player).UpdatePlayerDuty(status, (outcome) => outcomes.push(outcome));
    await world.sim.until(() => outcomes.length > 0, 15_000, 'the duty outcome');
    return outcomes[0] as DutyOutcome;
  }

  it('gets a player’s off to the panel within the cap, not the day, and tells the owner once', async () => {
    const arrived: string[] = [];
    world = await startWorld({
      clock: 'virtual',
      panelHandlers: [
        http.post('*/api/leo/duty/:action', ({ params }) => {
          arrived.push(String(params.action));
          return HttpResponse.json({ ok: true }, { headers: A_DAY });
        }),
      ],
    });
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    const jamie = await world.join(ONE_DEPARTMENT, 'Jamie Rivera');
    expect(await duty(alex, true)).toMatchObject({ ok: true, onDuty: true });
    // The window the bridge's first requests opened ends; Jamie's on opens the next, under the policy of a day.
    await world.sim.advance(LONGEST_WAIT_MS + 1_000);
    expect(await duty(jamie, true)).toMatchObject({ ok: true, onDuty: true });
    expect(arrived).toEqual(['on', 'on']);

    expect(await duty(alex, false)).toMatchObject({ ok: true, onDuty: false });
    await world.sim.advance(LONGEST_WAIT_MS);
    await world.sim.settle();

    expect(arrived).toEqual(['on', 'on', 'off']);
    const told = world.sim.console.filter((line) => line.text.includes('RateLimit-Policy')).map((line) => line.text);
    expect(told).toEqual([expect.stringMatching(/WARN: .*RateLimit-Policy: 200;w=86400.* 60 s/)]);
  }, 60_000);
});
