import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DutyOutcome } from '../../shared/events.js';
import type { SimPlayer } from '../../sim/index.js';
import { bridgeOf } from '../e2e/support/bridge-exports.js';
import { startWorld, type World } from '../e2e/support/world.js';
import { LSPD, ONE_DEPARTMENT, SAFR, TWO_DEPARTMENTS, UNKNOWN_USER } from '../mock-panel/support/demo-users.js';
import { buildTsDutyHud } from './support/ts-duty-hud.js';

type RosterEntry = { source: number; name: string; departmentId: number; rankId: number };

describe('the TypeScript duty HUD example (examples/ts_duty_hud)', () => {
  let built: ReturnType<typeof buildTsDutyHud>;
  let world: World;
  beforeAll(() => {
    built = buildTsDutyHud();
  });
  afterAll(() => built.remove());
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  const start = async () => {
    world = await startWorld({ resources: [{ dir: built.dir, name: 'ts_duty_hud' }], clock: 'virtual' });
  };
  const hudViews = (player: SimPlayer) =>
    player.nuiMessages.filter((m) => m.resource === 'ts_duty_hud').map((m) => JSON.parse(m.data).view);
  const roster = (departmentId?: number) =>
    (world.sim.exports.ts_duty_hud as { GetRoster: (id?: number) => RosterEntry[] }).GetRoster(departmentId);

  async function setDuty(player: SimPlayer, on: boolean, index = 0) {
    const outcomes: DutyOutcome[] = [];
    if (on) bridgeOf(player).GetDutyOptions().departments[index]?.setActive();
    bridgeOf(player).UpdatePlayerDuty(on, (outcome) => outcomes.push(outcome));
    await world.sim.until(() => outcomes.length > 0, 10_000, 'the duty outcome');
    await world.sim.settle();
    expect(outcomes[0]).toMatchObject({ ok: true, onDuty: on });
  }

  it("shows the player's duty in the HUD: departments when off duty, department, rank and callsign on duty", async () => {
    await start();
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    expect(hudViews(alex)).toEqual([{ state: 'off', departments: 2 }]);
    await setDuty(alex, true);
    await setDuty(alex, false);
    expect(hudViews(alex)).toEqual([
      { state: 'off', departments: 2 },
      { state: 'on', department: 'Los Santos Police Department', rank: 'Sergeant', callsign: 'L' },
      { state: 'off', departments: 2 },
    ]);
  });

  it('tells a player the panel does not know why there is no duty', async () => {
    await start();
    const stranger = await world.join(UNKNOWN_USER, 'Stranger');
    expect(hudViews(stranger)).toEqual([
      { state: 'unavailable', message: expect.stringMatching(/^The panel does not know your chat account/) },
    ]);
  });

  it('shows the duty again after the HUD restarted mid-duty, from the bridge exports', async () => {
    await start();
    const jamie = await world.join(ONE_DEPARTMENT, 'Jamie Rivera');
    await setDuty(jamie, true);
    await world.sim.restartResource('ts_duty_hud');
    await world.sim.settle();
    expect(hudViews(jamie).at(-1)).toEqual({
      state: 'on',
      department: 'San Andreas Fire Rescue',
      rank: 'Captain',
      callsign: null,
    });
  });

  it('keeps the on-duty roster from the server events, per department, and prints it with the roster command', async () => {
    await start();
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    const jamie = await world.join(ONE_DEPARTMENT, 'Jamie Rivera');
    await setDuty(alex, true);
    await setDuty(jamie, true);
    expect(roster()).toEqual([
      { source: alex.id, name: 'Alex Mercer', departmentId: LSPD.id, rankId: LSPD.sergeant },
      { source: jamie.id, name: 'Jamie Rivera', departmentId: SAFR.id, rankId: SAFR.captain },
    ]);
    expect(roster(SAFR.id)).toEqual([expect.objectContaining({ source: jamie.id })]);

    world.sim.command('roster');
    await world.sim.settle();
    const printed = world.sim.console.filter((line) => line.resource === 'ts_duty_hud').map((line) => line.text);
    expect(printed).toEqual([
      `[${alex.id}] Alex Mercer: department ${LSPD.id}, rank ${LSPD.sergeant}`,
      `[${jamie.id}] Jamie Rivera: department ${SAFR.id}, rank ${SAFR.captain}`,
    ]);

    alex.drop('Exiting');
    await world.sim.until(() => roster().length === 1, 10_000, 'the roster without Alex');
    expect(roster()).toEqual([expect.objectContaining({ source: jamie.id })]);
  });
});
