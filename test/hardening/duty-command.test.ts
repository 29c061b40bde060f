// Hostile clients against the duty command (Config.DutyCommand): whatever a player types or sends, it changes only
// their own duty. The command runs on the player's own client and reaches the server as that client's duty request,
// so the server takes whose duty it is from who sent it; the server registers no duty command a client could run for
// someone else.
import { afterEach, describe, expect, it } from 'vitest';
import { INTERNAL_EVENTS } from '../../shared/events.js';
import { dutyAnswered, typed } from '../e2e/support/duty-requests.js';
import { startWorld, type World } from '../e2e/support/world.js';
import { LSPD, MEMBER_WITHOUT_RANK_ROLE, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';

describe('the duty command and another player', () => {
  let world: World;
  afterEach(async () => {
    await world?.close();
  });

  it('cannot take another player off duty, however it is typed or forged', async () => {
    world = await startWorld({ config: 'Config.DutyCommand = { Enabled = true }', clock: 'virtual' });
    const { sim } = world;
    const victim = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    // The attacker is a member of the victim's department: /duty lspd is legitimate for them, for themselves.
    const attacker = await world.join(MEMBER_WITHOUT_RANK_ROLE, 'Casey Novak');
    await typed(world, victim, '/duty lspd');
    const victimDuty = sim.exports.bridge.GetPlayerDuty(victim.id);
    expect(victimDuty).toMatchObject({ onDuty: true, departmentId: LSPD.id, rankId: LSPD.sergeant });
    const victimClientEvents = () => victim.received().filter((event) => event.name.startsWith('bridge:')).length;
    const victimEventsBefore = victimClientEvents();

    // Everything a player can type: the victim's server id where a department goes, with and without off.
    for (const line of ['/duty off', `/duty ${victim.id}`, `/duty ${victim.id} off`, '/duty lspd', '/duty off']) {
      await typed(world, attacker, line);
    }
    const attackerSaw = attacker.notifications.map((n) => n.text);
    // Past the duty requests' rate limit again, so each forged request below is looked at, not refused unread.
    await sim.advance(10_000);
    // Everything a client script can send: the duty request naming the victim in every place, and the command as a
    // server command (it falls back to the server, which has none of that name).
    await dutyAnswered(world, attacker, () => {
      attacker.emitNet(INTERNAL_EVENTS.dutyRequest, 900, false, null, victim.id);
      attacker.emitNet(INTERNAL_EVENTS.dutyRequest, 901, false, victim.id);
      attacker.emitNet(INTERNAL_EVENTS.dutyRequest, victim.id, false, null);
      attacker.emitNet(INTERNAL_EVENTS.dutyRequest, 902, true, LSPD.id, { source: victim.id, chatId: TWO_DEPARTMENTS });
      attacker.emitNet('__cfx_internal:commandFallback', `duty off ${victim.id}`);
    });
    await sim.settle();

    // The victim's duty, at the server, the panel and their own client, is as it was.
    expect(sim.exports.bridge.GetPlayerDuty(victim.id)).toEqual(victimDuty);
    expect(victim.stateBag()['bridge:duty']).toMatchObject({ onDuty: true, departmentId: LSPD.id });
    expect(world.panel.controls.sessions(TWO_DEPARTMENTS)).toMatchObject([{ departmentId: LSPD.id, endedAt: null }]);
    expect(world.eventArgs('bridge:server:playerOffDuty').filter(([src]) => src === victim.id)).toEqual([]);
    expect(victimClientEvents()).toBe(victimEventsBefore);

    // The attacker's commands acted on the attacker alone: /duty 1 is their first department, not player 1.
    expect(world.eventArgs('bridge:server:playerOnDuty')).toEqual([
      [victim.id, LSPD.id, LSPD.sergeant, false],
      [attacker.id, LSPD.id, LSPD.officer, false],
    ]);
    expect(world.panel.controls.sessions(MEMBER_WITHOUT_RANK_ROLE).map((s) => s.endedBy)).toEqual(['off']);
    expect(sim.exports.bridge.IsPlayerOnDuty(attacker.id)).toBe(false);
    expect(attackerSaw).toEqual([
      'You are not on duty.',
      'You are now on duty: Los Santos Police Department, Officer.',
      `You have no department "${victim.id} off"; /duty lists yours.`,
      'You are already on duty in Los Santos Police Department.',
      'You are now off duty.',
    ]);
    // The forged requests were answered to the attacker: an extra argument makes a request not valid (answered at
    // once), a department or request id in place of a player is only that, and off while off changes nothing.
    expect(attacker.notifications.slice(attackerSaw.length).map((n) => n.text)).toEqual([
      'The duty request was not valid.',
      'The duty request was not valid.',
      'You are not on duty.',
      'You are not on duty.',
    ]);
    expect(world.consoleText()).toContain('No such command duty.');
    sim.assertNoErrors();
  });

  it('cannot put another player on duty, however it is typed or forged', async () => {
    world = await startWorld({ config: 'Config.DutyCommand = { Enabled = true }', clock: 'virtual' });
    const { sim } = world;
    const victim = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    const attacker = await world.join(MEMBER_WITHOUT_RANK_ROLE, 'Casey Novak');

    // The victim's server id where a department goes, then off again so the next line tries anew.
    for (const line of [`/duty ${victim.id}`, '/duty off', '/duty lspd', '/duty off']) {
      await typed(world, attacker, line);
    }
    await sim.advance(10_000);
    // Valid on requests for a department the victim has, naming the victim wherever a client could.
    await dutyAnswered(world, attacker, () => {
      attacker.emitNet(INTERNAL_EVENTS.dutyRequest, 910, true, LSPD.id, victim.id);
      attacker.emitNet(INTERNAL_EVENTS.dutyRequest, victim.id, true, LSPD.id);
    });
    await sim.settle();

    expect(sim.exports.bridge.IsPlayerOnDuty(victim.id)).toBe(false);
    expect(world.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([]);
    expect(world.eventArgs('bridge:server:playerOnDuty').filter(([src]) => src === victim.id)).toEqual([]);
    expect(victim.notifications.map((n) => n.text)).toEqual([]);
    // What went on duty was the attacker, as themselves.
    expect(world.eventArgs('bridge:server:playerOnDuty').every(([src]) => src === attacker.id)).toBe(true);
    expect(world.eventArgs('bridge:server:playerOnDuty').length).toBeGreaterThan(0);
    sim.assertNoErrors();
  });
});
