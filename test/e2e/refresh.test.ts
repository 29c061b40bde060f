import { afterEach, describe, expect, it } from 'vitest';
import type { SimPlayer } from '../../sim/index.js';
import { LSPD, LSPD_ROLES, ONE_DEPARTMENT, SAFR, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { bridgeOf } from './support/bridge-exports.js';
import { startWorld, type World } from './support/world.js';

type Options = {
  ok: boolean;
  departments: Array<{ id: number; rank: { id: number; name: string }; setActive: () => void }>;
};

const options = (player: SimPlayer) => bridgeOf(player).GetDutyOptions() as Options;
const texts = (player: SimPlayer) => player.notifications.map((n) => n.text);
const departmentsRequests = (world: World) => world.requests().filter((r) => r.startsWith('GET'));

describe('/dutyrefresh and the profile cache', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  async function onDuty(player: SimPlayer, index = 0) {
    const outcomes: unknown[] = [];
    options(player).departments[index]?.setActive();
    bridgeOf(player).UpdatePlayerDuty(true, (outcome: unknown) => outcomes.push(outcome));
    await world.sim.until(() => outcomes.length > 0, 10_000, 'the duty outcome');
    await world.sim.settle();
  }

  async function refresh(player: SimPlayer, expectedText: string) {
    player.command('/dutyrefresh');
    await world.sim.until(() => texts(player).includes(expectedText), 10_000, expectedText);
    await world.sim.settle();
  }

  it('is suggested in the chat with its help text', async () => {
    world = await startWorld();
    const player = await world.join(TWO_DEPARTMENTS);
    expect(player.chat.suggestions.get('/dutyrefresh')).toMatchObject({
      help: 'Reload your departments and ranks from the panel',
    });
  });

  it('fetches again, bypassing the cache, after a role change made through the mock panel', async () => {
    world = await startWorld();
    const player = await world.join(ONE_DEPARTMENT);
    expect(options(player).departments.map((d) => d.id)).toEqual([SAFR.id]);
    world.panel.controls.setRoles(ONE_DEPARTMENT, [LSPD_ROLES.member, LSPD_ROLES.lieutenant]);
    expect(options(player).departments.map((d) => d.id)).toEqual([SAFR.id]);

    await refresh(player, 'Your departments and ranks were refreshed.');
    expect(options(player).departments.map((d) => [d.id, d.rank.name])).toEqual([[LSPD.id, 'Lieutenant']]);
    expect(departmentsRequests(world)).toHaveLength(2);
    expect(world.eventArgs('bridge:client:profile', player)).toHaveLength(2);
  });

  it('takes a player off duty when the refreshed profile no longer has their department', async () => {
    world = await startWorld();
    const player = await world.join(ONE_DEPARTMENT);
    await onDuty(player);
    world.panel.controls.setRoles(ONE_DEPARTMENT, []);
    await refresh(player, 'Your departments and ranks were refreshed.');
    expect(bridgeOf(player).IsPlayerOnDuty()).toBe(false);
    expect(world.eventArgs('bridge:client:offDuty', player)).toEqual([
      [{ departmentId: SAFR.id, reason: 'department_removed' }],
    ]);
    expect(world.eventArgs('bridge:server:playerOffDuty')).toEqual([[player.id, 'department_removed', false]]);
    await world.sim.until(() => world.requests().includes('POST /api/leo/duty/off 200'), 10_000, 'the off call');
    expect(texts(player)).toContain('You were taken off duty: you are no longer a member of San Andreas Fire Rescue.');
  });

  it('reflects a changed rank in the duty state while on duty', async () => {
    world = await startWorld();
    const player = await world.join(TWO_DEPARTMENTS);
    await onDuty(player, 0);
    world.panel.controls.setRoles(TWO_DEPARTMENTS, [LSPD_ROLES.member, LSPD_ROLES.lieutenant]);
    await refresh(player, 'Your rank is now Lieutenant.');
    expect(bridgeOf(player).IsPlayerOnDuty()).toBe(true);
    expect(world.eventArgs('bridge:internal:dutyState', player).at(-1)).toEqual([
      expect.objectContaining({ onDuty: true, departmentId: LSPD.id, rankId: LSPD.lieutenant }),
    ]);
    expect(world.eventArgs('bridge:client:deptData', player).at(-1)).toEqual([
      expect.objectContaining({ departmentId: LSPD.id, rank: { id: LSPD.lieutenant, name: 'Lieutenant' } }),
    ]);
  });

  it('makes a player wait out the cooldown between two refreshes', async () => {
    world = await startWorld();
    const player = await world.join(TWO_DEPARTMENTS);
    await refresh(player, 'Your departments and ranks were refreshed.');
    await refresh(player, 'Please wait 30 s before refreshing again.');
    expect(departmentsRequests(world)).toHaveLength(2);
  });
});

describe('the profile cache in virtual time', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  it('serves the profile from the cache for RefreshIntervalMs; once expired, asking for it refreshes it once', async () => {
    world = await startWorld({ clock: 'virtual' });
    const player = await world.join(ONE_DEPARTMENT);
    const profiles = () => world.eventArgs('bridge:client:profile', player);
    const askForProfile = async () => {
      player.emitNet('bridge:internal:ready');
      await world.sim.settle();
      await world.sim.tick(2);
    };
    expect(departmentsRequests(world)).toHaveLength(1);

    await world.sim.advance(290_000);
    await askForProfile();
    expect(departmentsRequests(world)).toHaveLength(1);
    expect(profiles()).toHaveLength(2);

    await world.sim.advance(15_000);
    await askForProfile();
    await world.sim.until(() => departmentsRequests(world).length === 2, 10_000, 'the refresh of the expired profile');
    await world.sim.until(() => profiles().length === 4, 10_000, 'the stale profile, then the refreshed one');
    const [stale, fresh] = profiles().slice(-2) as [[{ fetchedAt: number }], [{ fetchedAt: number }]];
    expect(fresh[0].fetchedAt).toBeGreaterThan(stale[0].fetchedAt);

    await askForProfile();
    expect(departmentsRequests(world)).toHaveLength(2);
  });
});
