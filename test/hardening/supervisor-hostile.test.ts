// A hostile client against the supervisor commands, the principals and the counts (issue 18): whatever it sends,
// nothing happens to another player without the ACE, and nothing it writes gives it a principal or moves a count.
// Simulator, mock panel, virtual clock.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DUTY_STATE_BAG_KEY, INTERNAL_EVENTS } from '../../shared/events.js';
import { changeDuty } from '../e2e/support/bridge-exports.js';
import { PRINCIPAL_ACES } from '../e2e/support/supervisors.js';
import { startWorld, type World } from '../e2e/support/world.js';
import { LSPD, ONE_DEPARTMENT, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';

const DUTY_CHEAT = join(import.meta.dirname, '..', 'e2e', 'fixtures', 'duty_cheat');
const DUTY_PERKS = join(import.meta.dirname, '..', 'e2e', 'fixtures', 'duty_perks');

describe('a hostile client without supervisor ACEs', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  it('cannot take another player off duty, refresh them, give itself principals or move the counts', async () => {
    world = await startWorld({
      clock: 'virtual',
      config: 'Config.AcePermissions = true',
      aces: PRINCIPAL_ACES,
      resources: [DUTY_CHEAT, DUTY_PERKS],
    });
    const { sim } = world;
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    const hostile = await world.join(ONE_DEPARTMENT, 'Hostile');
    await changeDuty(sim, alex, true);

    const alexBefore = {
      principals: sim.principalsOf(alex.id),
      events: sim.events.filter((event) => event.player === alex.id).length,
      calls: world.requests().filter((request) => request.includes(TWO_DEPARTMENTS)).length,
      sessions: JSON.stringify(world.panel.controls.sessions(TWO_DEPARTMENTS)),
      counts: sim.stateBag('global')['bridge:onDutyCount'],
    };
    expect(alexBefore.principals).toContain('bridge.lspd');
    expect(alexBefore.counts).toEqual({ lspd: 1, total: 1 });

    // The commands, typed and sent as the fallback event, with ids in every form.
    for (const target of [String(alex.id), ` ${alex.id}`, `${alex.id}.0`, `0${alex.id}`, '-1', 'all']) {
      hostile.command(`/dutykick ${target}`);
      hostile.command(`/dutyrefresh ${target}`);
      hostile.emitNet('__cfx_internal:commandFallback', `dutykick ${target}`);
      await sim.advance(6_000);
    }
    // The supervisor refresh event straight, with payloads the client would never send; the plain refresh with a
    // target it ignores.
    for (const payload of [[alex.id], [String(alex.id)], [[alex.id]], [{ src: alex.id }], [alex.id, 'admin'], []]) {
      hostile.emitNet(INTERNAL_EVENTS.refreshOtherRequest, ...payload);
      hostile.emitNet(INTERNAL_EVENTS.refreshRequest, ...payload);
      await sim.advance(6_000);
    }
    // Console commands through the command fallback: FXServer runs nothing of the console's for a player.
    for (const line of [
      `add_principal identifier.chat:${ONE_DEPARTMENT} bridge.lspd`,
      `remove_principal identifier.chat:${TWO_DEPARTMENTS} bridge.account.chat:${TWO_DEPARTMENTS}`,
      'stop bridge',
    ]) {
      hostile.emitNet('__cfx_internal:commandFallback', line);
    }
    // Forged duty on its own bag and forged counts in GlobalState.
    const cheat = hostile.exports.duty_cheat as unknown as { forgeDuty(duty: unknown): void };
    cheat.forgeDuty({ onDuty: true, departmentId: LSPD.id, departmentSlug: 'lspd', rankId: 3, since: 1 });
    (hostile.exports.duty_perks as unknown as { forgeCounts(counts: unknown): void }).forgeCounts({ total: 0 });
    await sim.settle();
    await sim.advance(1_000);

    // Alex: still on duty with the same principals; nothing reached their client or the panel about them.
    expect(sim.exports.bridge.IsPlayerOnDuty(alex.id)).toBe(true);
    expect(sim.principalsOf(alex.id)).toEqual(alexBefore.principals);
    expect(sim.events.filter((event) => event.player === alex.id)).toHaveLength(alexBefore.events);
    expect(world.requests().filter((request) => request.includes(TWO_DEPARTMENTS))).toHaveLength(alexBefore.calls);
    expect(JSON.stringify(world.panel.controls.sessions(TWO_DEPARTMENTS))).toBe(alexBefore.sessions);
    // The hostile player: no principal, no duty, the bridge's bag value back.
    expect(sim.principalsOf(hostile.id)).toEqual([]);
    expect(
      (sim.exports.duty_perks as unknown as { allowed(src: number, o: string): boolean }).allowed(
        hostile.id,
        'command.spikestrip',
      ),
    ).toBe(false);
    expect(sim.exports.bridge.IsPlayerOnDuty(hostile.id)).toBe(false);
    expect(sim.stateBag(`player:${hostile.id}`)[DUTY_STATE_BAG_KEY]).toMatchObject({ onDuty: false });
    expect(world.eventArgs('bridge:server:playerOnDuty')).toEqual([[alex.id, LSPD.id, LSPD.sergeant, false]]);
    expect(sim.stateBag('global')['bridge:onDutyCount']).toEqual({ lspd: 1, total: 1 });
    expect(sim.resourceState('bridge')).toBe('started');
    // FXServer refused every /dutykick; the bridge refused every /dutyrefresh <id> it let through its limit.
    expect(world.consoleText()).not.toMatch(/took player|refreshes player/);
    expect(sim.console.filter((line) => line.text === 'Access denied for command dutykick.')).toHaveLength(12);
  });
});
