// Issue 23, item 2, end to end: only the panel's own answer is an answer. The built bridge in the simulator, the mock
// panel on a loopback socket behind its `proxy_404` fault: nginx's HTML 404 page answers in the panel's place.
import { afterEach, describe, expect, it } from 'vitest';
import type { SimPlayer } from '../../sim/index.js';
import { BCSO, LSPD, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { bridgeOf } from './support/bridge-exports.js';
import { startWorld, type World } from './support/world.js';

type Options = { ok: boolean; error?: string; departments?: Array<{ id: number; setActive: () => void }> };

const options = (player: SimPlayer) => bridgeOf(player).GetDutyOptions() as Options;
const texts = (player: SimPlayer) => player.notifications.map((notification) => notification.text);
const ACCEPTED = 'answers and accepts the API token';

describe('a proxy’s HTML 404 page in front of the panel', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  it('leaves a player their departments, tells nobody to /syncme, and lets them on duty once the panel is back', async () => {
    world = await startWorld();
    const player = await world.join(TWO_DEPARTMENTS);
    expect(options(player).departments?.map((department) => department.id)).toEqual([LSPD.id, BCSO.id]);

    world.panel.controls.setOutage({ mode: 'proxy_404' });
    const answered = () => world.requests().filter((request) => request.endsWith(' 404')).length;
    player.command('/dutyrefresh');
    await world.sim.until(() => answered() > 0, 10_000, 'the proxy’s page');
    await world.sim.advance(5_000);

    expect(options(player)).toMatchObject({ ok: true });
    expect(options(player).departments?.map((department) => department.id)).toEqual([LSPD.id, BCSO.id]);
    expect(world.eventArgs('bridge:client:profile', player).flat()).not.toContainEqual(
      expect.objectContaining({ error: 'not_registered' }),
    );
    expect(texts(player).join('\n')).not.toContain('/syncme');

    world.panel.controls.clearFaults('outage');
    const outcomes: unknown[] = [];
    options(player).departments?.[0]?.setActive();
    bridgeOf(player).UpdatePlayerDuty(true, (outcome: unknown) => outcomes.push(outcome));
    await world.sim.until(() => outcomes.length > 0, 15_000, 'the duty outcome');
    expect(outcomes[0]).toMatchObject({ ok: true, onDuty: true });
    expect(world.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([
      expect.objectContaining({ departmentId: LSPD.id, endedAt: null }),
    ]);
  }, 60_000);

  it('makes the start-up check say it got an HTML 404 page and name BRIDGE_API_BASE, not that the panel answers', async () => {
    world = await startWorld();
    expect(world.consoleText()).toContain(ACCEPTED);
    const before = world.sim.console.length;

    world.panel.controls.setOutage({ mode: 'proxy_404' });
    await world.sim.restart();
    await world.sim.advance(2_000);

    const after = world.sim.console.slice(before).map((line) => line.text);
    expect(after.filter((line) => line.includes(ACCEPTED))).toEqual([]);
    expect(after.filter((line) => line.includes('HTML 404 page'))).toEqual([
      expect.stringMatching(/WARN: .*HTML 404 page.*BRIDGE_API_BASE/),
    ]);
  }, 60_000);
});
