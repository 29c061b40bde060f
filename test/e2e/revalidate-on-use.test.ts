// Issue 13, items 1 and 3, end to end: the built bridge in the simulator, the mock panel over loopback HTTP, and a
// Lua duty menu reading GetDutyOptions() through msgpack. Roles change in the panel; nobody runs /dutyrefresh.
import { afterEach, describe, expect, it } from 'vitest';
import type { SimPlayer } from '../../sim/index.js';
import { BCSO, LSPD, LSPD_ROLES, NO_DEPARTMENTS, SAFR, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { luaMenuOf } from './support/bridge-exports.js';
import { startWorld, type World } from './support/world.js';

// At or above today's minimum of RefreshIntervalMs.
const INTERVAL = 10_000;
const SAFR_ROLES = { member: '1187342095671230003', firefighter: '1187342095671230031' } as const;

type Seen = {
  profiles: Array<{ ok: boolean }>;
  offDuty: Array<{ departmentId: number; reason: string }>;
  outcomes: Array<{ ok: boolean; error?: string; message?: string }>;
};
type Options = {
  ok: boolean;
  selectedDeptId: number | null;
  onDuty: boolean;
  departments: Array<{ id: number; rank: { id: number; name: string } }>;
};

describe('a Lua duty menu sees role changes made in the panel within one interval, without /dutyrefresh', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  const seen = (player: SimPlayer) => luaMenuOf(player).seen() as Seen;
  const options = (player: SimPlayer) => luaMenuOf(player).options()[0] as unknown as Options;
  // nil in Lua: the table has no such key.
  const selected = (player: SimPlayer) => options(player).selectedDeptId ?? null;
  const departments = (player: SimPlayer) => options(player).departments.map((d) => [d.id, d.rank.name]);
  const gets = () => world.requests().filter((request) => request.startsWith('GET'));
  const revalidations = () => world.sim.eventsNamed('bridge:internal:revalidate').filter((e) => e.side === 'server');

  async function start() {
    world = await startWorld({ clock: 'virtual', config: `Config.RefreshIntervalMs = ${INTERVAL}` });
    return world.join(TWO_DEPARTMENTS, 'Alex Mercer');
  }

  async function pressOnDuty(player: SimPlayer) {
    const before = seen(player).outcomes.length;
    luaMenuOf(player).goOnDutyAsSelected();
    await world.sim.until(() => seen(player).outcomes.length > before, 10_000, 'the duty outcome');
    await world.sim.settle();
    return seen(player).outcomes.at(-1);
  }

  it('a role gained, a role lost and a rank changed: stale at once, current after the answer', async () => {
    const alex = await start();
    expect(departments(alex)).toEqual([
      [LSPD.id, 'Sergeant'],
      [BCSO.id, 'Deputy'],
    ]);
    luaMenuOf(alex).select(2);
    expect(selected(alex)).toBe(BCSO.id);
    // Lieutenant now, SAFR gained, BCSO lost.
    world.panel.controls.setRoles(TWO_DEPARTMENTS, [
      LSPD_ROLES.member,
      LSPD_ROLES.lieutenant,
      SAFR_ROLES.member,
      SAFR_ROLES.firefighter,
    ]);
    await world.sim.advance(INTERVAL / 2);
    expect(departments(alex)).toEqual([
      [LSPD.id, 'Sergeant'],
      [BCSO.id, 'Deputy'],
    ]);
    expect(revalidations()).toEqual([]);

    await world.sim.advance(INTERVAL / 2 + 100);
    // The first read answers at once with what the client holds, and asks the server.
    expect(departments(alex)).toEqual([
      [LSPD.id, 'Sergeant'],
      [BCSO.id, 'Deputy'],
    ]);
    await world.sim.until(() => seen(alex).profiles.length === 2, 10_000, 'the revalidated profile');
    await world.sim.settle();

    expect(departments(alex)).toEqual([
      [LSPD.id, 'Lieutenant'],
      [SAFR.id, 'Firefighter'],
    ]);
    expect(selected(alex)).toBeNull();
    expect(revalidations()).toHaveLength(1);
    expect(gets()).toEqual([
      `GET /api/leo/user/${TWO_DEPARTMENTS}/departments 200`,
      `GET /api/leo/user/${TWO_DEPARTMENTS}/departments 200`,
    ]);
    expect(world.sim.eventsNamed('bridge:internal:refresh')).toEqual([]);
    expect(await pressOnDuty(alex)).toMatchObject({ ok: false, error: 'no_department_selected' });
  });

  it('reads within one interval ask the server once, and a menu that is never opened asks nothing', async () => {
    const alex = await start();
    const jamie = await world.join('1039284756102938475', 'Jamie Rivera');
    await world.sim.advance(INTERVAL + 100);
    for (let read = 0; read < 20; read++) {
      options(alex);
      await world.sim.advance(INTERVAL / 40);
    }
    await world.sim.settle();
    expect(revalidations().map((event) => event.source)).toEqual([`net:${alex.id}`]);
    expect(gets()).toHaveLength(3);
    expect(seen(jamie).profiles).toHaveLength(1);
  });

  it('takes an officer off duty for a department lost in the panel, and clears the selection for good', async () => {
    const alex = await start();
    luaMenuOf(alex).select(2);
    expect(await pressOnDuty(alex)).toMatchObject({ ok: true, onDuty: true, departmentId: BCSO.id });
    world.panel.controls.setRoles(TWO_DEPARTMENTS, [LSPD_ROLES.member, LSPD_ROLES.lieutenant]);
    await world.sim.advance(INTERVAL + 100);

    options(alex);
    await world.sim.until(() => seen(alex).offDuty.length === 1, 10_000, 'the off duty');
    await world.sim.until(
      () => world.requests().includes('POST /api/leo/duty/off 200'),
      10_000,
      'the off call to the panel',
    );
    await world.sim.settle();

    expect(seen(alex).offDuty).toEqual([{ departmentId: BCSO.id, reason: 'department_removed' }]);
    expect(options(alex).onDuty).toBe(false);
    expect(selected(alex)).toBeNull();
    expect(departments(alex)).toEqual([[LSPD.id, 'Lieutenant']]);
    // Not `not_member` for the department it no longer has: the one department left.
    expect(await pressOnDuty(alex)).toMatchObject({ ok: true, onDuty: true, departmentId: LSPD.id });
    expect(world.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([
      expect.objectContaining({ departmentId: BCSO.id, endedBy: 'off' }),
      expect.objectContaining({ departmentId: LSPD.id, endedAt: null }),
    ]);
  });

  it('after /dutyrefresh removed the duty department, "On duty" takes the one left instead of failing not_member', async () => {
    const alex = await start();
    luaMenuOf(alex).select(2);
    await pressOnDuty(alex);
    world.panel.controls.setRoles(TWO_DEPARTMENTS, [LSPD_ROLES.member, LSPD_ROLES.lieutenant]);
    alex.command('dutyrefresh');
    await world.sim.until(() => seen(alex).offDuty.length === 1, 10_000, 'the off duty');
    await world.sim.settle();
    expect(selected(alex)).toBeNull();
    expect(await pressOnDuty(alex)).toMatchObject({ ok: true, onDuty: true, departmentId: LSPD.id });
  });

  it('tells a player with no department that there is none, with the /syncme advice', async () => {
    world = await startWorld({ clock: 'virtual', config: `Config.RefreshIntervalMs = ${INTERVAL}` });
    const riley = await world.join(NO_DEPARTMENTS, 'Riley Chen');
    const outcome = await pressOnDuty(riley);
    expect(outcome).toMatchObject({ ok: false, error: 'no_departments' });
    expect(outcome?.message).toContain('/syncme');
    expect(riley.notifications.at(-1)?.text).toContain('/syncme');
  });
});
