// /dutykick <id> and /dutyrefresh <id> typed by players in the simulator, against the mock panel: FXServer checks
// the ACEs (command.dutykick for the restricted command, command.dutyrefresh.others asked by the bridge), each use is
// logged with who did it, and plain /dutyrefresh stays everyone's.
import { afterEach, describe, expect, it } from 'vitest';
import { ROLES } from '../../bench/support/demo-users.js';
import type { SimPlayer } from '../../sim/index.js';
import { LSPD, MEMBER_WITHOUT_RANK_ROLE, ONE_DEPARTMENT, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { changeDuty } from './support/bridge-exports.js';
import { SUPERVISOR_ACES } from './support/supervisors.js';
import { startWorld, type World } from './support/world.js';

describe('supervisor commands in game', () => {
  let world: World;
  let alex: SimPlayer;
  let jamie: SimPlayer;
  let casey: SimPlayer;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  const chatOf = (player: SimPlayer) => player.chat.messages.map((message) => (message as { args: string[] }).args);
  const consoleLines = (text: string) =>
    world.sim.console.filter((line) => line.text.includes(text)).map((line) => line.text);
  const departmentCalls = (chatId: string) =>
    world.requests().filter((request) => request === `GET /api/leo/user/${chatId}/departments 200`);

  async function start(): Promise<void> {
    world = await startWorld({ clock: 'virtual', aces: SUPERVISOR_ACES });
    alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    jamie = await world.join(ONE_DEPARTMENT, 'Jamie Rivera');
    casey = await world.join(MEMBER_WITHOUT_RANK_ROLE, 'Casey Novak');
    expect(await changeDuty(world.sim, alex, true)).toMatchObject({ ok: true, departmentId: LSPD.id });
  }

  it('/dutykick <id>: refused without command.dutykick, then takes the player off duty for a supervisor', async () => {
    await start();
    const { sim } = world;
    jamie.command(`/dutykick ${alex.id}`);
    await sim.settle();
    expect(consoleLines('Access denied for command dutykick.')).toHaveLength(1);
    expect(sim.exports.bridge.IsPlayerOnDuty(alex.id)).toBe(true);
    expect(chatOf(jamie)).toEqual([]);

    casey.command(`/dutykick ${alex.id}`);
    await sim.until(() => !sim.exports.bridge.IsPlayerOnDuty(alex.id), 10_000, 'the kick');
    await sim.settle();
    expect(world.eventArgs('bridge:client:offDuty', alex)).toEqual([[{ departmentId: LSPD.id, reason: 'admin' }]]);
    expect(alex.notifications.at(-1)?.text).toBe('An administrator took you off duty.');
    expect(chatOf(casey)).toEqual([['bridge', `player ${alex.id} is now off duty`]]);
    expect(consoleLines('(/dutykick)')).toEqual([
      `INFO: player ${casey.id} (Casey Novak) took player ${alex.id} (Alex Mercer) off duty (/dutykick)`,
    ]);
    expect(world.panel.controls.sessions(TWO_DEPARTMENTS).map((session) => session.endedBy)).toEqual(['off']);
  });

  it('/dutykick from the server console, and with an id that is no connected player', async () => {
    await start();
    casey.command('/dutykick 99');
    world.sim.command(`dutykick ${alex.id}`);
    await world.sim.until(() => !world.sim.exports.bridge.IsPlayerOnDuty(alex.id), 10_000, 'the kick');
    await world.sim.settle();
    expect(chatOf(casey)).toEqual([['bridge', 'no connected player "99"; usage: /dutykick <player id>']]);
    expect(consoleLines('(/dutykick)')).toEqual([
      `INFO: the console took player ${alex.id} (Alex Mercer) off duty (/dutykick)`,
    ]);
  });

  it('/dutyrefresh <id>: refused without command.dutyrefresh.others, then refreshes the other player', async () => {
    await start();
    const { sim } = world;
    world.panel.controls.setRoles(TWO_DEPARTMENTS, [ROLES.lspdMember, ROLES.lspdLieutenant]);
    const before = departmentCalls(TWO_DEPARTMENTS).length;
    const alexProfiles = world.eventArgs('bridge:client:profile', alex).length;

    jamie.command(`/dutyrefresh ${alex.id}`);
    await sim.settle();
    expect(departmentCalls(TWO_DEPARTMENTS)).toHaveLength(before);
    expect(world.eventArgs('bridge:client:profile', alex)).toHaveLength(alexProfiles);
    expect(chatOf(jamie)).toEqual([
      ['bridge', 'you may not refresh other players (the ACE command.dutyrefresh.others is needed)'],
    ]);

    casey.command(`/dutyrefresh ${alex.id}`);
    await sim.until(() => chatOf(casey).length > 0, 10_000, "the supervisor's answer");
    await sim.settle();
    expect(departmentCalls(TWO_DEPARTMENTS)).toHaveLength(before + 1);
    expect(world.eventArgs('bridge:client:profile', alex)).toHaveLength(alexProfiles + 1);
    expect(sim.exports.bridge.GetPlayerDuty(alex.id)).toMatchObject({ onDuty: true, rankId: LSPD.lieutenant });
    expect(chatOf(casey)).toEqual([['bridge', `player ${alex.id}: lspd (Lieutenant)`]]);
    expect(consoleLines('/dutyrefresh')).toEqual([
      `INFO: player ${jamie.id} (Jamie Rivera) may not refresh other players (/dutyrefresh <id>): no ACE command.dutyrefresh.others`,
      `INFO: player ${casey.id} (Casey Novak) refreshes player ${alex.id} (Alex Mercer) (/dutyrefresh ${alex.id})`,
    ]);
  });

  it('plain /dutyrefresh stays everyone’s, with its notice and its cooldown', async () => {
    await start();
    jamie.command('/dutyrefresh');
    await world.sim.until(() => jamie.notifications.length > 0, 10_000, 'the notice');
    expect(jamie.notifications.map((n) => n.text)).toEqual(['Your departments and ranks were refreshed.']);
    expect(chatOf(jamie)).toEqual([]);
    expect(jamie.chat.suggestions.get('/dutyrefresh')).toEqual({
      name: '/dutyrefresh',
      help: 'Reload your departments and ranks from the panel',
      params: [{ name: 'id', help: "Supervisors: another player's server id" }],
    });
  });
});
