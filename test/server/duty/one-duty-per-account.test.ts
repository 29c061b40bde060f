import { describe, expect, it } from 'vitest';
import { ALEX, BCSO, LSPD, playerWith, TWO_DEPARTMENTS } from '../../../bench/support/demo-users.js';
import { DUTY_STATE_BAG_KEY, PUBLIC_EVENTS } from '../../../shared/events.js';
import {
  connect,
  DUTY_OFF,
  DUTY_ON,
  type RunningBridge,
  startBridge,
  useMockPanel,
} from '../support/bridge-harness.js';
import { elapse, settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();

/** Alex's second game account: another license, the same chat account. */
const ALEX_SECOND_GAME = { name: 'Alex (alt)', identifiers: ['license:aa11bb22cc33', `chat:${TWO_DEPARTMENTS}`] };

const openSessions = () => mock.panel.controls.sessions(TWO_DEPARTMENTS).filter((session) => session.endedAt === null);
const dutyCalls = (running: RunningBridge) => running.calls().filter((call) => call === DUTY_ON || call === DUTY_OFF);
const bag = (running: RunningBridge, src: number) => running.port.playerState.get(src)?.get(DUTY_STATE_BAG_KEY);

/** What every view of a session says: the server's duty state, the server export, the state bag. */
const views = (running: RunningBridge, src: number) => ({
  state: running.bridge.duty.state(src).onDuty,
  exported: (running.port.exported.get('IsPlayerOnDuty') as (src: number) => boolean)(src),
  bag: (bag(running, src) as { onDuty: boolean } | undefined)?.onDuty,
});

/** A bridge with two live sessions of Alex's chat account: 7 and 9. */
async function aliveTwice(): Promise<RunningBridge> {
  const running = await startBridge(mock.panel);
  await connect(running, 7, ALEX);
  await connect(running, 9, ALEX_SECOND_GAME);
  return running;
}

/** Session 9 asks to go on duty in BCSO on a slow panel; session 7 drops while that call is on its way. */
async function firstDropsWhileSecondGoesOnDuty(running: RunningBridge): Promise<void> {
  mock.panel.controls.setLatency(2_000);
  running.port.requestDuty(9, 1, true, BCSO.id);
  await elapse(100);
  running.port.drop(7);
}

describe('at most one session of a chat account is on duty', () => {
  it('a player who drops while their on-duty call is slow and reconnects ends on duty in game and at the panel', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    // Slow, but each call answers well within the time a player waits for going on duty.
    mock.panel.controls.setLatency(2_000);

    running.port.requestDuty(7, 1, true, LSPD.id);
    await elapse(500);
    running.port.drop(7, 'Game crashed');
    await elapse(500);
    await connect(running, 9, ALEX);
    running.port.requestDuty(9, 1, true, LSPD.id);
    await elapse(60_000);
    await settle();

    expect(openSessions()).toEqual([expect.objectContaining({ departmentId: LSPD.id, serverId: 9 })]);
    expect(views(running, 9)).toEqual({ state: true, exported: true, bag: true });
    expect(running.dutyResults(9)).toEqual([[1, expect.objectContaining({ ok: true, onDuty: true })]]);
    // The session that left never went on duty in game.
    expect(running.port.emitted(PUBLIC_EVENTS.playerOnDuty)).toEqual([[9, LSPD.id, LSPD.sergeant, false]]);
  });

  it('a session that dropped before its on-duty call was answered never goes on duty, and the panel ends that duty', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    mock.panel.controls.setLatency(4_000);

    running.port.requestDuty(7, 1, true, LSPD.id);
    await elapse(1_000);
    running.port.drop(7);
    await elapse(60_000);
    await settle();

    expect(running.port.emitted(PUBLIC_EVENTS.playerOnDuty)).toEqual([]);
    expect(bag(running, 7)).toMatchObject({ onDuty: false });
    expect(running.bridge.duty.state(7).onDuty).toBe(false);
    expect(openSessions()).toEqual([]);
  });

  it('going on duty in a second live session takes the first off duty in game, and its off never reaches the panel', async () => {
    const running = await aliveTwice();

    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    running.port.requestDuty(9, 1, true, BCSO.id);
    await settle();

    expect(views(running, 7)).toEqual({ state: false, exported: false, bag: false });
    expect(running.port.sentTo(7, PUBLIC_EVENTS.offDuty)).toEqual([[{ departmentId: LSPD.id, reason: 'replaced' }]]);
    expect(running.port.emitted(PUBLIC_EVENTS.playerOffDuty)).toEqual([[7, 'replaced', false]]);

    // The first session asks to go off duty (its menu still showed it on duty), then leaves.
    running.port.requestDuty(7, 2, false, null);
    await settle();
    running.port.drop(7);
    await settle();

    expect(dutyCalls(running)).toEqual([DUTY_ON, DUTY_ON]);
    expect(openSessions()).toEqual([expect.objectContaining({ departmentId: BCSO.id, serverId: 9 })]);
    expect(views(running, 9)).toEqual({ state: true, exported: true, bag: true });
  });

  it('the session holding the duty keeps it when another session of the account drops while going on duty', async () => {
    const running = await aliveTwice();
    running.port.requestDuty(9, 1, true, BCSO.id);
    await settle();
    mock.panel.controls.setLatency(4_000);

    running.port.requestDuty(7, 1, true, LSPD.id);
    await elapse(1_000);
    running.port.drop(7);
    await elapse(60_000);
    await settle();

    expect(views(running, 9)).toEqual({ state: true, exported: true, bag: true });
    expect(openSessions()).toEqual([expect.objectContaining({ departmentId: BCSO.id })]);
    expect(running.port.emitted(PUBLIC_EVENTS.playerOnDuty)).toEqual([[9, BCSO.id, BCSO.deputy, false]]);
  });

  it('a session that dropped cannot be put on duty while its drop waits behind the other call of the account', async () => {
    const running = await aliveTwice();
    // Session 7 leaves; its drop waits in the account's queue behind session 9's call. Meanwhile a resource, which
    // still knows 7, puts 7 on duty by export.
    await firstDropsWhileSecondGoesOnDuty(running);
    await settle();
    const setDuty = running.port.exported.get('SetPlayerDuty') as (src: number, on: boolean, id: number) => unknown;
    const outcome = setDuty(7, true, LSPD.id) as Promise<{ ok: boolean }>;
    await elapse(60_000);
    await settle();

    expect((await outcome).ok).toBe(false);
    expect(running.port.emitted(PUBLIC_EVENTS.playerOnDuty)).toEqual([[9, BCSO.id, BCSO.deputy, false]]);
    expect(views(running, 9)).toEqual({ state: true, exported: true, bag: true });
    expect(openSessions()).toEqual([expect.objectContaining({ departmentId: BCSO.id, serverId: 9 })]);
    expect(running.bridge.duty.state(7).onDuty).toBe(false);
    // Nothing is held for the session that left: only session 9's bag is the guard's.
    expect(running.bridge.footprint()).toMatchObject({ players: 1, stateBagGuard: 1, 'duty.leaving': 0 });
  });

  it('a session that leaves while another one takes over is told nothing and counted as dropped', async () => {
    const running = await aliveTwice();
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    await firstDropsWhileSecondGoesOnDuty(running);
    await elapse(60_000);
    await settle();

    expect(running.port.sentTo(7, PUBLIC_EVENTS.offDuty)).toEqual([]);
    expect(views(running, 9)).toEqual({ state: true, exported: true, bag: true });
    expect(openSessions()).toEqual([expect.objectContaining({ departmentId: BCSO.id, serverId: 9 })]);
  });

  it('another chat account is not touched', async () => {
    const running = await startBridge(mock.panel);
    const other = playerWith('1039284756102938475', 'Jamie Rivera');
    await connect(running, 7, ALEX);
    await connect(running, 8, other);
    running.port.requestDuty(8, 1, true, 3);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();

    expect(running.bridge.duty.state(8).onDuty).toBe(true);
    expect(running.bridge.duty.state(7).onDuty).toBe(true);
  });
});
