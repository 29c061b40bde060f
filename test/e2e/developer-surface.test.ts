import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeServerExports } from '../../shared/events.js';
import type { SimPlayer } from '../../sim/index.js';
import { BCSO, LSPD, ONE_DEPARTMENT, SAFR, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { bridgeOf, luaMenuOf } from './support/bridge-exports.js';
import { startWorld, type World } from './support/world.js';

type LuaView = {
  onDuty: boolean;
  duty: Record<string, unknown>;
  onDutyPlayers: unknown[];
  departments: { ok: boolean; departments: Array<{ id: number }> };
  bag: Record<string, unknown> | null;
};

describe('the server exports, the duty state bag and the bridge admin command', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  const server = () => world.sim.exports.bridge as BridgeServerExports;
  const luaServer = () =>
    world.sim.exports.lua_duty_menu as {
      bridgeView(src: number): LuaView;
      setDuty(src: number, on: boolean, departmentId?: number): unknown;
    };

  async function onDuty(player: SimPlayer, index: number) {
    expect(luaMenuOf(player).goOnDuty(index)).toBe(true);
    await world.sim.until(() => bridgeOf(player).IsPlayerOnDuty(), 10_000, 'on duty');
    await world.sim.settle();
  }

  it('answer from JavaScript: duty, the on-duty list per department, the departments', async () => {
    world = await startWorld();
    const alex = await world.join(TWO_DEPARTMENTS);
    const jamie = await world.join(ONE_DEPARTMENT);
    await onDuty(alex, 2);
    expect(server().IsPlayerOnDuty(alex.id)).toBe(true);
    expect(server().IsPlayerOnDuty(jamie.id)).toBe(false);
    expect(server().GetPlayerDuty(alex.id)).toEqual({
      onDuty: true,
      departmentId: BCSO.id,
      departmentSlug: 'bcso',
      rankId: BCSO.deputy,
      since: expect.any(Number),
    });
    expect(server().GetOnDutyPlayers()).toEqual([expect.objectContaining({ source: alex.id, departmentId: BCSO.id })]);
    expect(server().GetOnDutyPlayers(LSPD.id)).toEqual([]);
    expect(server().GetPlayerDepartments(jamie.id)).toEqual({
      ok: true,
      departments: [expect.objectContaining({ id: SAFR.id, slug: 'safr' })],
    });
  });

  it('answer from Lua the same, and the state bag holds the duty on the server', async () => {
    world = await startWorld();
    const alex = await world.join(TWO_DEPARTMENTS);
    expect(luaServer().bridgeView(alex.id)).toMatchObject({
      onDuty: false,
      // Lua drops nil fields, so an off-duty bag arrives in Lua as just { onDuty = false }.
      bag: { onDuty: false },
      departments: { ok: true },
    });
    expect(luaServer().bridgeView(alex.id).bag).not.toHaveProperty('departmentId');
    await onDuty(alex, 1);
    const view = luaServer().bridgeView(alex.id);
    expect(view).toMatchObject({
      onDuty: true,
      duty: { onDuty: true, departmentId: LSPD.id, departmentSlug: 'lspd', rankId: LSPD.sergeant },
      bag: { onDuty: true, departmentId: LSPD.id, departmentSlug: 'lspd', rankId: LSPD.sergeant },
    });
    expect(view.onDutyPlayers).toEqual([expect.objectContaining({ source: alex.id })]);
  });

  it('replicate the state bag to the player, who reads it without an export', async () => {
    world = await startWorld();
    const alex = await world.join(TWO_DEPARTMENTS);
    await onDuty(alex, 1);
    expect(alex.stateBag()['bridge:duty']).toMatchObject({ onDuty: true, departmentId: LSPD.id });
    expect(luaMenuOf(alex).goOffDuty()).toBe(true);
    await world.sim.until(() => !bridgeOf(alex).IsPlayerOnDuty(), 10_000, 'off duty');
    await world.sim.settle();
    expect(alex.stateBag()['bridge:duty']).toMatchObject({ onDuty: false, departmentId: null, departmentSlug: null });
  });

  it('set duty for an MDT with the same checks and panel calls as the player, from Lua', async () => {
    world = await startWorld();
    const jamie = await world.join(ONE_DEPARTMENT);
    const on = await world.sim.resolve(Promise.resolve(luaServer().setDuty(jamie.id, true)), 10_000);
    expect(on).toMatchObject({ ok: true, onDuty: true, departmentId: SAFR.id });
    expect(world.requests()).toContain('POST /api/leo/duty/on 200');
    const refused = await world.sim.resolve(Promise.resolve(luaServer().setDuty(jamie.id, true, LSPD.id)), 10_000);
    expect(refused).toMatchObject({ ok: false, error: 'not_member' });
    const off = await world.sim.resolve(server().SetPlayerDuty(jamie.id, false), 10_000);
    expect(off).toMatchObject({ ok: true, onDuty: false });
    await world.sim.settle();
    expect(world.eventArgs('bridge:client:offDuty', jamie)).toEqual([[{ departmentId: SAFR.id, reason: 'admin' }]]);
  });

  it('refresh a player from JavaScript, bypassing the cache', async () => {
    world = await startWorld();
    const alex = await world.join(TWO_DEPARTMENTS);
    world.panel.controls.setRoles(TWO_DEPARTMENTS, []);
    const profile = await world.sim.resolve(server().RefreshPlayer(alex.id), 10_000);
    expect(profile).toMatchObject({ ok: true, departments: [] });
    // The player's client hears of it with the next net tick.
    await world.sim.until(() => bridgeOf(alex).GetDutyOptions().departments.length === 0, 5000, 'the new profile');
    expect(bridgeOf(alex).GetDutyOptions()).toMatchObject({ ok: true, departments: [] });
  });

  it('bridge offduty, bridge refresh and bridge help from the console', async () => {
    world = await startWorld();
    const alex = await world.join(TWO_DEPARTMENTS);
    await onDuty(alex, 1);
    const mark = world.sim.console.length;
    world.sim.command(`bridge offduty ${alex.id}`);
    await world.sim.until(() => !bridgeOf(alex).IsPlayerOnDuty(), 10_000, 'off duty');
    world.sim.command('bridge refresh all');
    world.sim.command('bridge offduty 999');
    world.sim.command('bridge');
    await world.sim.until(
      () => world.sim.console.some((line) => line.text.includes(`player ${alex.id}: lspd (Sergeant), bcso (Deputy)`)),
      10_000,
      'the refresh report',
    );
    const text = world.sim.console
      .slice(mark)
      .map((line) => line.text)
      .join('\n');
    expect(text).toContain(`player ${alex.id} is now off duty`);
    expect(text).toContain('no connected player "999"; usage: bridge offduty <player id>');
    expect(text).toMatch(/refresh <player id\|all>/);
    expect(text).toMatch(/offduty <player id>/);
    expect(text).toMatch(/status/);
    expect(world.eventArgs('bridge:client:offDuty', alex)).toEqual([[{ departmentId: LSPD.id, reason: 'admin' }]]);
  });

  it('refuse the bridge command to a player without the ACE', async () => {
    world = await startWorld();
    const alex = await world.join(TWO_DEPARTMENTS);
    await onDuty(alex, 1);
    alex.command(`bridge offduty ${alex.id}`);
    await world.sim.settle();
    await world.sim.tick(4);
    expect(bridgeOf(alex).IsPlayerOnDuty()).toBe(true);
  });
});
