import { http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeServerExports, DutyOutcome } from '../../shared/events.js';
import type { SimPlayer } from '../../sim/index.js';
import { BCSO, LSPD, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { bridgeOf } from './support/bridge-exports.js';
import { startWorld, type World } from './support/world.js';

/** Alex's chat account from two game accounts (two licenses), or one game reconnecting. */
const ALEX_GAME = ['license:0123456789abcdef', `chat:${TWO_DEPARTMENTS}`];
const ALEX_SECOND_GAME = ['license:fedcba9876543210', `chat:${TWO_DEPARTMENTS}`];

const REPLACED_TEXT = 'You are now off duty: your chat account went on duty in another game session.';

describe('one duty per chat account, end to end', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  const server = () => world.sim.exports.bridge as BridgeServerExports;
  const openSessions = () =>
    world.panel.controls.sessions(TWO_DEPARTMENTS).filter((session) => session.endedAt === null);
  const dutyPosts = () => world.requests().filter((request) => request.startsWith('POST'));

  /** What the player's client, the server export and the replicated state bag say. */
  const views = (player: SimPlayer) => ({
    client: bridgeOf(player).IsPlayerOnDuty(),
    server: server().IsPlayerOnDuty(player.id),
    bag: (player.stateBag()['bridge:duty'] as { onDuty: boolean } | undefined)?.onDuty,
  });

  /** Asks for duty through the client export (selecting the department first) and waits for the outcome. */
  async function updateDuty(player: SimPlayer, on: boolean, departmentId?: number): Promise<DutyOutcome> {
    if (departmentId !== undefined) {
      const { departments } = bridgeOf(player).GetDutyOptions();
      departments.find((department) => department.id === departmentId)?.setActive();
    }
    const outcomes: DutyOutcome[] = [];
    bridgeOf(player).UpdatePlayerDuty(on, (outcome) => outcomes.push(outcome));
    await world.sim.until(() => outcomes.length > 0, 15_000, 'the duty outcome');
    await world.sim.settle();
    return outcomes[0] as DutyOutcome;
  }

  /** Until `bridge status` shows no duty call pending and `online` players: every drop handled, every call sent. */
  async function bridgeSettled(online: number): Promise<void> {
    let mark = world.sim.console.length;
    world.sim.command('bridge status');
    await world.sim.until(
      () => {
        const text = world.sim.console
          .slice(mark)
          .map((line) => line.text)
          .join('\n');
        if (text.includes('outbox    0 duty call(s) pending') && text.includes(`players   ${online} online`))
          return true;
        mark = world.sim.console.length;
        world.sim.command('bridge status');
        return false;
      },
      20_000,
      'the bridge to settle',
    );
  }

  it('a player whose game crashes while the panel is slow with their on-duty call, and who reconnects and goes on duty, is on duty in game and at the panel', async () => {
    // Passes every duty call on to the panel, noting that it arrived (the panel's own log notes it once answered).
    const arrived: string[] = [];
    world = await startWorld({
      panelHandlers: [
        http.post('*/api/leo/duty/:action', ({ params }) => {
          arrived.push(String(params.action));
        }),
      ],
    });
    const ghost = await world.join({ identifiers: ALEX_GAME }, 'Alex Mercer');
    world.panel.controls.setLatency(1_500);

    const ghostOutcomes: DutyOutcome[] = [];
    bridgeOf(ghost).GetDutyOptions().departments[0]?.setActive();
    bridgeOf(ghost).UpdatePlayerDuty(true, (outcome) => ghostOutcomes.push(outcome));
    await world.sim.until(() => arrived.length === 1, 10_000, 'the on-duty call at the panel');
    ghost.drop('Game crashed.');

    const alex = await world.join({ identifiers: ALEX_GAME }, 'Alex Mercer');
    expect(alex.id).not.toBe(ghost.id);
    expect(await updateDuty(alex, true, LSPD.id)).toMatchObject({ ok: true, onDuty: true, departmentId: LSPD.id });
    await bridgeSettled(1);

    // The ghost's `on` reached the panel, so the bridge ended it before the new session's `on`.
    expect(dutyPosts()).toEqual([
      'POST /api/leo/duty/on 200',
      'POST /api/leo/duty/off 200',
      'POST /api/leo/duty/on 200',
    ]);
    expect(openSessions()).toEqual([expect.objectContaining({ departmentId: LSPD.id, serverId: alex.id })]);
    expect(views(alex)).toEqual({ client: true, server: true, bag: true });
    expect(
      server()
        .GetOnDutyPlayers()
        .map((player) => player.source),
    ).toEqual([alex.id]);
    expect(world.eventArgs('bridge:server:playerOnDuty')).toEqual([[alex.id, LSPD.id, LSPD.sergeant, false]]);
  });

  it('two live sessions of one chat account: the second going on duty takes the first off duty, whose off never reaches the panel', async () => {
    world = await startWorld();
    const first = await world.join({ identifiers: ALEX_GAME }, 'Alex Mercer');
    const second = await world.join({ identifiers: ALEX_SECOND_GAME }, 'Alex Alt');

    expect(await updateDuty(first, true, LSPD.id)).toMatchObject({ ok: true, onDuty: true });
    expect(await updateDuty(second, true, BCSO.id)).toMatchObject({ ok: true, onDuty: true, departmentId: BCSO.id });
    await world.sim.until(() => !bridgeOf(first).IsPlayerOnDuty(), 5_000, 'the first session off duty');

    expect(views(first)).toEqual({ client: false, server: false, bag: false });
    expect(views(second)).toEqual({ client: true, server: true, bag: true });
    expect(first.notifications.map((notification) => notification.text)).toContain(REPLACED_TEXT);
    expect(world.eventArgs('bridge:client:offDuty', first)).toEqual([[{ departmentId: LSPD.id, reason: 'replaced' }]]);

    // The first session's menu asks to go off duty anyway, then its player leaves.
    expect(await updateDuty(first, false)).toMatchObject({ ok: true, changed: false, onDuty: false });
    first.drop();
    await bridgeSettled(1);

    expect(dutyPosts()).toEqual(['POST /api/leo/duty/on 200', 'POST /api/leo/duty/on 200']);
    expect(openSessions()).toEqual([expect.objectContaining({ departmentId: BCSO.id, serverId: second.id })]);
    expect(views(second)).toEqual({ client: true, server: true, bag: true });
  });
});
