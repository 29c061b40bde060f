import { afterEach, expect, it } from 'vitest';
import { LSPD, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { bridgeOf, changeDuty } from './support/bridge-exports.js';
import { PRINCIPAL_ACES } from './support/supervisors.js';
import { startWorld, type World } from './support/world.js';

let world: World;
afterEach(async () => {
  world.sim.assertNoErrors();
  await world.close();
});

it('a proxy 404 page while on duty ends nothing; the panel deleting the account then does', async () => {
  world = await startWorld({ clock: 'virtual', config: 'Config.AcePermissions = true', aces: PRINCIPAL_ACES });
  const { sim } = world;
  const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
  expect(await changeDuty(sim, alex, true, 0)).toMatchObject({ ok: true, departmentId: LSPD.id });
  world.panel.controls.setOutage({ mode: 'proxy_404' });
  await sim.advance(3 * 300_000);
  expect(bridgeOf(alex).IsPlayerOnDuty()).toBe(true);
  expect(sim.principalsOf(alex.id)).toContain('bridge.lspd');
  expect(world.eventArgs('bridge:client:offDuty', alex)).toEqual([]);
  world.panel.controls.clearFaults();
  world.panel.controls.deleteUser(TWO_DEPARTMENTS);
  await sim.advance(300_000 + 5_000);
  await sim.until(() => !bridgeOf(alex).IsPlayerOnDuty(), 30_000, 'off duty');
  expect(world.eventArgs('bridge:client:offDuty', alex)).toEqual([
    [{ departmentId: LSPD.id, reason: 'account_removed' }],
  ]);
  expect(sim.principalsOf(alex.id)).toEqual([]);
});
