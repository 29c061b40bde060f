import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SimPlayer } from '../../sim/index.js';
import { BCSO, LSPD, ONE_DEPARTMENT, SAFR, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { luaMenuOf } from './support/bridge-exports.js';
import { startWorld, type World } from './support/world.js';

type Seen = {
  profiles: Array<{ ok: boolean; departments: unknown[] }>;
  deptData: Array<{ departmentId: number; rank: { id: number }; data: { vehicles: Array<{ model: string }> } }>;
  offDuty: Array<{ departmentId: number; reason: string }>;
  outcomes: Array<Record<string, unknown>>;
};
type ServerSeen = {
  onDuty: Array<{ argc: number; src: number; types: string[]; name: string }>;
  offDuty: Array<{ argc: number; src: number; type: string; reason: string; resumable: boolean }>;
};

describe('the duty states, driven by a Lua duty menu', () => {
  let world: World;
  let alex: SimPlayer;
  const clientSeen = (player: SimPlayer) => luaMenuOf(player).seen() as Seen;
  const serverSeen = () => (world.sim.exports.lua_duty_menu as { seen: () => ServerSeen }).seen();

  beforeEach(async () => {
    world = await startWorld();
    alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
  });
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  async function goOnDuty(player: SimPlayer, index: number) {
    expect(luaMenuOf(player).goOnDuty(index)).toBe(true);
    await world.sim.until(() => clientSeen(player).outcomes.length > 0, 10_000, 'the duty outcome');
    await world.sim.settle();
  }

  it('sees the profile and the departments with their ranks, and setActive as a callable reference', async () => {
    const [options, setActiveType] = luaMenuOf(alex).options();
    expect(options).toMatchObject({
      ok: true,
      onDuty: false,
      departments: [
        { id: LSPD.id, slug: 'lspd', rank: { id: LSPD.sergeant, name: 'Sergeant' } },
        { id: BCSO.id, slug: 'bcso', rank: { id: BCSO.deputy, name: 'Deputy' } },
      ],
    });
    expect(setActiveType).toBe('table');
    expect(clientSeen(alex).profiles).toEqual([expect.objectContaining({ ok: true, chatId: TWO_DEPARTMENTS })]);
  });

  it('off duty → on duty: setActive then UpdatePlayerDuty(true) calls duty/on, fires the events, sends deptData', async () => {
    await goOnDuty(alex, 1);
    expect(world.requests()).toEqual([
      `GET /api/leo/user/${TWO_DEPARTMENTS}/departments 200`,
      'POST /api/leo/duty/on 200',
    ]);
    expect(world.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([
      expect.objectContaining({ departmentId: LSPD.id, rankId: LSPD.sergeant, endedAt: null }),
    ]);
    expect(serverSeen().onDuty).toEqual([
      { argc: 4, src: alex.id, types: ['integer', 'integer', 'integer', 'boolean'], name: 'Alex Mercer' },
    ]);
    expect(world.eventArgs('bridge:server:playerOnDuty')).toEqual([[alex.id, LSPD.id, LSPD.sergeant, false]]);
    const seen = clientSeen(alex);
    expect(seen.outcomes).toEqual([
      expect.objectContaining({ ok: true, changed: true, onDuty: true, departmentId: LSPD.id, rankId: LSPD.sergeant }),
    ]);
    expect(seen.deptData).toEqual([
      expect.objectContaining({ departmentId: LSPD.id, rank: { id: 2, name: 'Sergeant' } }),
    ]);
    expect(seen.deptData[0]?.data.vehicles.length).toBeGreaterThan(0);
    expect(luaMenuOf(alex).isOnDuty()).toBe(true);
    expect(alex.notifications.map((n) => n.text)).toContain(
      'You are now on duty: Los Santos Police Department, Sergeant.',
    );
  });

  it('UpdatePlayerDuty(true) without setActive: the only department of a player with one, a choice with two', async () => {
    const jamie = await world.join(ONE_DEPARTMENT, 'Jamie Rivera');
    expect(luaMenuOf(jamie).goOnDutyAsSelected()).toBe(true);
    await world.sim.until(() => clientSeen(jamie).outcomes.length > 0, 10_000, 'the duty outcome');
    expect(clientSeen(jamie).outcomes).toEqual([
      expect.objectContaining({ ok: true, changed: true, onDuty: true, departmentId: SAFR.id, rankId: SAFR.captain }),
    ]);
    expect(world.panel.controls.sessions(ONE_DEPARTMENT)).toEqual([
      expect.objectContaining({ departmentId: SAFR.id, rankId: SAFR.captain, endedAt: null }),
    ]);

    expect(luaMenuOf(alex).goOnDutyAsSelected()).toBe(false);
    await world.sim.until(() => clientSeen(alex).outcomes.length > 0, 10_000, 'the refusal');
    expect(clientSeen(alex).outcomes).toEqual([
      expect.objectContaining({ ok: false, error: 'no_department_selected' }),
    ]);
    expect(world.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([]);
  });

  it('hands Lua every time as an integer (epoch ms), on the server and on the client, as the types say', async () => {
    await goOnDuty(alex, 1);
    const integers = {
      duty: 'integer',
      onDutyPlayers: 'integer',
      bag: 'integer',
      setDuty: 'integer',
      refresh: 'integer',
    };
    const server = world.sim.exports.lua_duty_menu as { timeTypes: (src: number) => Promise<Record<string, string>> };
    expect(await server.timeTypes(alex.id)).toEqual(integers);
    await world.sim.settle();
    expect(luaMenuOf(alex).timeTypes()).toEqual({
      profile: 'integer',
      outcome: 'integer',
      bag: 'integer',
      options: 'integer',
    });
  });

  it('on duty → off duty: UpdatePlayerDuty(false) calls duty/off and fires playerOffDuty and offDuty', async () => {
    await goOnDuty(alex, 2);
    expect(luaMenuOf(alex).goOffDuty()).toBe(true);
    await world.sim.until(() => clientSeen(alex).outcomes.length > 1, 10_000, 'the off outcome');
    await world.sim.until(() => world.requests().length === 3, 10_000, 'the off call');
    await world.sim.settle();
    expect(world.requests().at(-1)).toBe('POST /api/leo/duty/off 200');
    expect(serverSeen().offDuty).toEqual([
      { argc: 3, src: alex.id, type: 'integer', reason: 'request', resumable: false },
    ]);
    expect(clientSeen(alex).offDuty).toEqual([{ departmentId: BCSO.id, reason: 'request' }]);
    expect(clientSeen(alex).outcomes[1]).toMatchObject({ ok: true, changed: true, onDuty: false });
    expect(luaMenuOf(alex).isOnDuty()).toBe(false);
    expect(world.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([
      expect.objectContaining({ departmentId: BCSO.id, endedBy: 'off' }),
    ]);
  });

  it('a player who disconnects on duty is taken off duty, in the game and in the panel', async () => {
    await goOnDuty(alex, 1);
    alex.drop('Exiting');
    await world.sim.until(() => world.requests().includes('POST /api/leo/duty/off 200'), 10_000, 'the off call');
    expect(serverSeen().offDuty).toEqual([
      { argc: 3, src: alex.id, type: 'integer', reason: 'dropped', resumable: false },
    ]);
    expect(world.panel.controls.sessions(TWO_DEPARTMENTS)[0]).toMatchObject({ endedBy: 'off' });
  });

  it('starts every session off duty, even after a previous session on duty', async () => {
    await goOnDuty(alex, 1);
    alex.drop('Exiting');
    await world.sim.until(() => world.requests().includes('POST /api/leo/duty/off 200'), 10_000, 'the off call');
    const again = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    expect(luaMenuOf(again).isOnDuty()).toBe(false);
    expect(luaMenuOf(again).options()).toEqual([expect.objectContaining({ ok: true, onDuty: false }), 'table']);
  });

  it('takes every on-duty player off duty when the resource stops; the panel hears it by the next start', async () => {
    const jamie = await world.join('1039284756102938475', 'Jamie Rivera');
    await goOnDuty(alex, 1);
    await goOnDuty(jamie, 1);
    await world.sim.stopResource('bridge');
    expect(
      serverSeen()
        .offDuty.map((entry) => entry.src)
        .sort(),
    ).toEqual([alex.id, jamie.id].sort());
    await world.sim.startResource('bridge');
    await world.sim.until(
      () => world.panel.controls.sessions().every((session) => session.endedAt !== null),
      10_000,
      'both sessions to end in the panel',
    );
    expect(world.panel.controls.sessions().map((session) => session.endedBy)).toEqual(['off', 'off']);
  });
});
