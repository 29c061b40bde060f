// /dutykick <id> and /dutyrefresh <id>: supervisors in game, each behind its ACE, each use logged with who did it.
import { describe, expect, it } from 'vitest';
import { ALEX, JAMIE, LSPD, playerWith, ROLES, TWO_DEPARTMENTS } from '../../../bench/support/demo-users.js';
import { INTERNAL_EVENTS, PUBLIC_EVENTS } from '../../../shared/events.js';
import { SUPERVISOR_ACES } from '../../e2e/support/supervisors.js';
import { MEMBER_WITHOUT_RANK_ROLE } from '../../mock-panel/support/demo-users.js';
import { connect, DUTY_OFF, departmentsCall, startBridge, useMockPanel } from '../support/bridge-harness.js';
import { settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();

const SUPERVISOR = playerWith(MEMBER_WITHOUT_RANK_ROLE, 'Casey Novak');

async function withAlexOnDuty(aces: string[] = SUPERVISOR_ACES) {
  const running = await startBridge(mock.panel, { aces });
  await connect(running, 7, ALEX);
  await connect(running, 8, JAMIE);
  await connect(running, 9, SUPERVISOR);
  running.port.requestDuty(7, 1, true, LSPD.id);
  await settle();
  expect(running.bridge.duty.state(7).onDuty).toBe(true);
  return running;
}

describe('/dutykick <id>', () => {
  it('takes the player off duty as an admin would, tells the supervisor and logs who did it', async () => {
    const running = await withAlexOnDuty();
    const replies = running.port.runCommand('dutykick 7', 9);
    await settle();
    expect(replies).toEqual([]);
    expect(running.port.replies.at(-1)).toEqual({ src: 9, line: 'player 7 is now off duty' });
    expect(running.bridge.duty.state(7).onDuty).toBe(false);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.offDuty)).toEqual([[{ departmentId: LSPD.id, reason: 'admin' }]]);
    expect(running.calls().filter((call) => call.startsWith('POST'))).toContain(DUTY_OFF);
    expect(running.port.linesWith('/dutykick')).toEqual([
      'INFO: player 9 (Casey Novak) took player 7 (Alex Mercer) off duty (/dutykick)',
    ]);
  });

  it('works from the console too, and says so for a player who was not on duty', async () => {
    const running = await withAlexOnDuty();
    running.port.runCommand('dutykick 7');
    running.port.runCommand('dutykick 8');
    await settle();
    expect(running.port.replies.map(({ src, line }) => [src, line])).toEqual([
      [0, 'player 7 is now off duty'],
      [0, 'player 8 was not on duty'],
    ]);
    expect(running.port.linesWith('/dutykick')).toEqual([
      'INFO: the console took player 7 (Alex Mercer) off duty (/dutykick)',
      'INFO: the console ran /dutykick on player 8 (Jamie Rivera), who was not on duty',
    ]);
  });

  it('is refused by FXServer to a player without the ACE command.dutykick: it is a restricted command', async () => {
    const running = await withAlexOnDuty([]);
    expect(running.port.commands.get('dutykick')?.restricted).toBe(true);
    running.port.runCommand('dutykick 7', 9);
    await settle();
    expect(running.bridge.duty.state(7).onDuty).toBe(true);
    expect(running.port.lines).toContain('Access denied for command dutykick.');
  });

  it.each([[''], ['0'], ['99'], ['7abc'], ['-7'], ['7.0']])(
    'answers usage for "%s", taking nobody off duty',
    async (id) => {
      const running = await withAlexOnDuty();
      const replies = running.port.runCommand(`dutykick ${id}`.trim(), 9);
      expect(replies).toEqual([`no connected player "${id}"; usage: /dutykick <player id>`]);
      expect(running.bridge.duty.state(7).onDuty).toBe(true);
    },
  );

  it('logs a name cleaned of control characters: a player cannot forge a log line with theirs', async () => {
    const running = await withAlexOnDuty();
    await connect(running, 10, playerWith('1039284756102938400', 'Evil\nINFO: fake line'));
    running.port.runCommand('dutykick 10', 9);
    await settle();
    expect(running.port.linesWith('/dutykick')).toEqual([
      'INFO: player 9 (Casey Novak) ran /dutykick on player 10 (EvilINFO: fake line), who was not on duty',
    ]);
  });
});

describe('/dutyrefresh <id>', () => {
  it("refreshes another player for a supervisor: the panel's answer, the player's new profile, a reply", async () => {
    const running = await withAlexOnDuty();
    mock.panel.controls.setRoles(TWO_DEPARTMENTS, [ROLES.lspdMember, ROLES.lspdLieutenant]);
    const profilesBefore = running.port.sentTo(7, PUBLIC_EVENTS.profile).length;
    running.port.requestRefreshOther(9, '7');
    await settle();
    expect(running.calls()).toContain(departmentsCall(TWO_DEPARTMENTS));
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toHaveLength(profilesBefore + 1);
    expect(running.bridge.duty.state(7).rankId).toBe(LSPD.lieutenant);
    expect(running.port.replies).toEqual([{ src: 9, line: 'player 7: lspd (Lieutenant)' }]);
    expect(running.port.linesWith('/dutyrefresh')).toEqual([
      'INFO: player 9 (Casey Novak) refreshes player 7 (Alex Mercer) (/dutyrefresh 7)',
    ]);
  });

  it('is refused without the ACE command.dutyrefresh.others: no panel call, nothing sent to the other player', async () => {
    const running = await withAlexOnDuty([]);
    const before = { calls: running.calls().length, events: running.port.clientEvents.length };
    running.port.requestRefreshOther(8, '7');
    await settle();
    expect(running.calls()).toHaveLength(before.calls);
    expect(running.port.clientEvents.slice(before.events).filter((event) => event.src !== 8)).toEqual([]);
    expect(running.port.replies).toEqual([
      { src: 8, line: 'you may not refresh other players (the ACE command.dutyrefresh.others is needed)' },
    ]);
    expect(running.port.linesWith('/dutyrefresh')).toEqual([
      'INFO: player 8 (Jamie Rivera) may not refresh other players (/dutyrefresh <id>): no ACE command.dutyrefresh.others',
    ]);
  });

  it('registers no server command dutyrefresh: a non-restricted one grants command.dutyrefresh, and so .others, to everyone', async () => {
    const running = await withAlexOnDuty([]);
    // That an ACE on an object grants its children is the simulator's ACE store's own test (test/sim/aces.test.ts).
    expect(running.port.commands.has('dutyrefresh')).toBe(false);
  });

  it.each([[undefined], [''], ['99'], [{ id: 7 }], ['7 8'], [-7]])(
    'answers usage for a target that is no connected player (%j)',
    async (target) => {
      const running = await withAlexOnDuty();
      const before = running.calls().length;
      running.port.requestRefreshOther(9, target);
      await settle();
      expect(running.calls()).toHaveLength(before);
      expect(running.port.replies.at(-1)?.line).toMatch(/^no connected player ".*"; usage: \/dutyrefresh <player id>$/);
    },
  );

  it('leaves plain /dutyrefresh as it was: the player refreshes themself, without any ACE', async () => {
    const running = await withAlexOnDuty([]);
    running.port.requestRefresh(8);
    await settle();
    expect(running.port.sentTo(8, INTERNAL_EVENTS.notify).at(-1)).toEqual(['refreshed', {}]);
  });

  it('is limited per player like every client event: a flood costs no panel request past the burst', async () => {
    const running = await withAlexOnDuty();
    const before = running.calls().length;
    for (let i = 0; i < 20; i++) running.port.requestRefreshOther(9, '8');
    await settle();
    expect(running.calls().length - before).toBe(3);
  });
});
