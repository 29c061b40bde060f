import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DutyOutcome } from '../../shared/events.js';
import type { SimPlayer } from '../../sim/index.js';
import { BCSO, LSPD, ONE_DEPARTMENT, SAFR, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { bridgeOf } from './support/bridge-exports.js';
import { startWorld, type World } from './support/world.js';

type DutyOptions = {
  ok: boolean;
  selectedDeptId: number | null;
  onDuty: boolean;
  departments: Array<{ id: number; slug: string; name: string; rank: { id: number }; setActive: () => boolean }>;
};

describe('the client exports and events, from JavaScript', () => {
  let world: World;
  let alex: SimPlayer;
  const options = (player: SimPlayer) => bridgeOf(player).GetDutyOptions() as DutyOptions;
  const posts = () => world.requests().filter((request) => request.startsWith('POST'));

  beforeEach(async () => {
    world = await startWorld();
    alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
  });
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  async function updateDuty(player: SimPlayer, status: boolean): Promise<DutyOutcome> {
    const outcomes: DutyOutcome[] = [];
    expect(bridgeOf(player).UpdatePlayerDuty(status, (outcome) => outcomes.push(outcome))).toBe(true);
    await world.sim.until(() => outcomes.length > 0, 10_000, 'the duty outcome');
    await world.sim.settle();
    return outcomes[0] as DutyOutcome;
  }

  it('gets the profile event with the departments and ranks the panel computed', () => {
    expect(world.eventArgs('bridge:client:profile', alex)).toEqual([
      [
        {
          ok: true,
          chatId: TWO_DEPARTMENTS,
          fetchedAt: expect.any(Number),
          departments: [
            { id: LSPD.id, slug: 'lspd', name: 'Los Santos Police Department', rank: { id: 2, name: 'Sergeant' } },
            { id: BCSO.id, slug: 'bcso', name: "Blaine County Sheriff's Office", rank: { id: 4, name: 'Deputy' } },
          ],
        },
      ],
    ]);
  });

  it('selects with setActive across the msgpack boundary and goes on duty with a JS callback', async () => {
    expect(options(alex).departments[1]?.setActive()).toBe(true);
    expect(options(alex).selectedDeptId).toBe(BCSO.id);
    const listened: unknown[][] = [];
    world.sim.on('bridge:server:playerOnDuty', (args) => listened.push(args));
    expect(await updateDuty(alex, true)).toMatchObject({ ok: true, onDuty: true, departmentId: BCSO.id, rankId: 4 });
    expect(listened).toEqual([[alex.id, BCSO.id, BCSO.deputy, false]]);
    expect(bridgeOf(alex).IsPlayerOnDuty()).toBe(true);
    expect(world.eventArgs('bridge:client:deptData', alex)).toEqual([
      [expect.objectContaining({ departmentId: BCSO.id, slug: 'bcso', rank: { id: 4, name: 'Deputy' } })],
    ]);
  });

  it('refuses UpdatePlayerDuty(true) before a department was set active, without a panel call', async () => {
    const outcomes: unknown[] = [];
    expect(bridgeOf(alex).UpdatePlayerDuty(true, (outcome: unknown) => outcomes.push(outcome))).toBe(false);
    expect(outcomes).toEqual([expect.objectContaining({ ok: false, error: 'no_department_selected' })]);
    await world.sim.settle();
    expect(posts()).toEqual([]);
    expect(alex.notifications.map((n) => n.text)).toContain('Select a department before going on duty.');
  });

  it('switching department while on duty is off, then on, in that order', async () => {
    options(alex).departments[0]?.setActive();
    await updateDuty(alex, true);
    options(alex).departments[1]?.setActive();
    expect(await updateDuty(alex, true)).toMatchObject({ ok: true, departmentId: BCSO.id });
    await world.sim.until(() => posts().length === 3, 10_000, 'three duty calls');
    expect(posts()).toEqual(['POST /api/leo/duty/on 200', 'POST /api/leo/duty/off 200', 'POST /api/leo/duty/on 200']);
    expect(world.eventArgs('bridge:server:playerOffDuty')).toEqual([[alex.id, 'request', false]]);
    expect(world.eventArgs('bridge:server:playerOnDuty')).toEqual([
      [alex.id, LSPD.id, LSPD.sergeant, false],
      [alex.id, BCSO.id, BCSO.deputy, false],
    ]);
  });

  it('a double request produces one on call', async () => {
    options(alex).departments[0]?.setActive();
    bridgeOf(alex).UpdatePlayerDuty(true);
    await updateDuty(alex, true);
    await world.sim.settle();
    expect(posts()).toEqual(['POST /api/leo/duty/on 200']);
    expect(world.eventArgs('bridge:server:playerOnDuty')).toHaveLength(1);
  });

  it('two players go on and off duty at once, each with their own department and rank', async () => {
    const jamie = await world.join(ONE_DEPARTMENT, 'Jamie Rivera');
    options(alex).departments[0]?.setActive();
    options(jamie).departments[0]?.setActive();
    const [alexOn, jamieOn] = await Promise.all([updateDuty(alex, true), updateDuty(jamie, true)]);
    expect(alexOn).toMatchObject({ departmentId: LSPD.id, rankId: LSPD.sergeant });
    expect(jamieOn).toMatchObject({ departmentId: SAFR.id, rankId: SAFR.captain });
    expect(bridgeOf(alex).IsPlayerOnDuty()).toBe(true);
    expect(bridgeOf(jamie).IsPlayerOnDuty()).toBe(true);
    await updateDuty(jamie, false);
    expect(bridgeOf(alex).IsPlayerOnDuty()).toBe(true);
    expect(bridgeOf(jamie).IsPlayerOnDuty()).toBe(false);
    expect(world.eventArgs('bridge:client:offDuty', jamie)).toEqual([[{ departmentId: SAFR.id, reason: 'request' }]]);
    expect(world.eventArgs('bridge:client:offDuty', alex)).toEqual([]);
  });

  it('refuses a spoofed duty request for a department the player does not have, without a panel call', async () => {
    alex.emitNet('bridge:internal:dutyRequest', 41, true, SAFR.id);
    alex.emitNet('bridge:internal:dutyRequest', 42, true, LSPD.id, { rankId: 3 });
    alex.emitNet('bridge:internal:dutyRequest', '43', 'yes', 'lspd');
    await world.sim.settle();
    await world.sim.tick(4);
    expect(posts()).toEqual([]);
    expect(world.eventArgs('bridge:server:playerOnDuty')).toEqual([]);
    const answers = world.eventArgs('bridge:internal:dutyResult', alex);
    expect(answers).toHaveLength(2);
    expect(answers).toEqual(
      expect.arrayContaining([
        [41, expect.objectContaining({ ok: false, error: 'not_member' })],
        [42, expect.objectContaining({ ok: false, error: 'invalid_request' })],
      ]),
    );
  });
});
