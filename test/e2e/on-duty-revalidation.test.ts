import { afterEach, describe, expect, it } from 'vitest';
import type { SimPlayer } from '../../sim/index.js';
import { BCSO, LSPD, LSPD_ROLES, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { bridgeOf, luaMenuOf } from './support/bridge-exports.js';
import { startWorld, type World } from './support/world.js';

interface ServerSeen {
  offDuty: Array<{ argc: number; src: number; type: string; reason: string; resumable: boolean }>;
  rankChanged: Array<{ argc: number; src: number; departmentId: number; rankId: number; types: string[] }>;
}

const INTERVAL_MS = 300_000;
const LSPD_SERGEANT_ROLE = '1187342095671230012';

describe('players on duty follow the panel without /dutyrefresh', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  const serverSeen = () => (world.sim.exports.lua_duty_menu as { seen: () => ServerSeen }).seen();

  async function onDuty(player: SimPlayer, index: number): Promise<number> {
    expect(luaMenuOf(player).goOnDuty(index)).toBe(true);
    await world.sim.until(() => bridgeOf(player).IsPlayerOnDuty(), 10_000, 'on duty');
    await world.sim.settle();
    return world.sim.now();
  }

  it('takes a player whose department was removed off duty within one interval, and ends the panel’s session', async () => {
    world = await startWorld({ clock: 'virtual' });
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    const since = await onDuty(alex, 2);
    expect(bridgeOf(alex).GetDutyOptions().departments[1]?.id).toBe(BCSO.id);
    world.panel.controls.setRoles(TWO_DEPARTMENTS, [LSPD_ROLES.member, LSPD_SERGEANT_ROLE]);

    await world.sim.advance(INTERVAL_MS - 10_000);
    expect(bridgeOf(alex).IsPlayerOnDuty()).toBe(true);
    await world.sim.until(() => !bridgeOf(alex).IsPlayerOnDuty(), 30_000, 'off duty');
    // One interval plus the panel's answer and a few server frames.
    expect(world.sim.now() - since).toBeLessThanOrEqual(INTERVAL_MS + 2_000);

    expect(world.eventArgs('bridge:client:offDuty', alex)).toEqual([
      [{ departmentId: BCSO.id, reason: 'department_removed' }],
    ]);
    expect(serverSeen().offDuty).toEqual([
      { argc: 3, src: alex.id, type: 'integer', reason: 'department_removed', resumable: false },
    ]);
    await world.sim.until(() => world.requests().includes('POST /api/leo/duty/off 200'), 10_000, 'the off call');
    expect(world.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([
      expect.objectContaining({ departmentId: BCSO.id, endedBy: 'off' }),
    ]);
  });

  it('sends a changed rank to the panel and fires playerRankChanged for a Lua server script', async () => {
    world = await startWorld({ clock: 'virtual' });
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    await onDuty(alex, 1);
    world.panel.controls.setRoles(TWO_DEPARTMENTS, [LSPD_ROLES.member, LSPD_ROLES.lieutenant]);

    await world.sim.advance(INTERVAL_MS - 10_000);
    expect(serverSeen().rankChanged).toEqual([]);
    await world.sim.until(() => serverSeen().rankChanged.length > 0, 30_000, 'the rank change');

    expect(serverSeen().rankChanged).toEqual([
      {
        argc: 3,
        src: alex.id,
        departmentId: LSPD.id,
        rankId: LSPD.lieutenant,
        types: ['integer', 'integer', 'integer'],
      },
    ]);
    expect(bridgeOf(alex).IsPlayerOnDuty()).toBe(true);
    await world.sim.until(
      () => world.requests().filter((request) => request === 'POST /api/leo/duty/on 200').length === 2,
      10_000,
      'the on with the new rank',
    );
    expect(world.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([
      expect.objectContaining({ departmentId: LSPD.id, rankId: LSPD.sergeant, endedBy: 'switch' }),
      expect.objectContaining({ departmentId: LSPD.id, rankId: LSPD.lieutenant, endedBy: null }),
    ]);
    await world.sim.until(
      () => alex.notifications.some((notification) => notification.text === 'Your rank is now Lieutenant.'),
      10_000,
      'the player told of the new rank',
    );
  });
});
