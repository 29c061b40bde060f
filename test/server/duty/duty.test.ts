import { describe, expect, it } from 'vitest';
import { ALEX, BCSO, JAMIE, LSPD, ONE_DEPARTMENT, SAFR, TWO_DEPARTMENTS } from '../../../bench/support/demo-users.js';
import { INTERNAL_EVENTS, PUBLIC_EVENTS } from '../../../shared/events.js';
import { connect, DUTY_OFF, DUTY_ON, startBridge, useMockPanel } from '../support/bridge-harness.js';
import { elapse, START_TIME, settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();

const lspdData = () => mock.panel.store.users.department(LSPD.id)?.data;

describe('going on duty (off duty → on duty)', () => {
  it('calls duty/on with the rank from the profile the server fetched, then fires playerOnDuty and sends deptData', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);

    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();

    expect(running.calls().filter((call) => call.startsWith('POST'))).toEqual([DUTY_ON]);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([
      expect.objectContaining({
        departmentId: LSPD.id,
        rankId: LSPD.sergeant,
        serverId: 7,
        playerName: 'Alex Mercer',
        endedAt: null,
      }),
    ]);
    expect(running.port.emitted(PUBLIC_EVENTS.playerOnDuty)).toEqual([[7, LSPD.id, LSPD.sergeant, false]]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.deptData)).toEqual([
      [
        {
          departmentId: LSPD.id,
          slug: 'lspd',
          name: 'Los Santos Police Department',
          rank: { id: 2, name: 'Sergeant' },
          data: lspdData(),
        },
      ],
    ]);
    expect(running.dutyResults(7)).toEqual([
      [1, { ok: true, changed: true, onDuty: true, departmentId: LSPD.id, rankId: LSPD.sergeant, since: START_TIME }],
    ]);
    expect(running.bridge.duty.state(7)).toMatchObject({ onDuty: true, departmentId: LSPD.id, rankId: LSPD.sergeant });
  });

  it('sends the new duty state to the player after the panel accepted it', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);

    running.port.requestDuty(7, 1, true, BCSO.id);
    await settle();

    expect(running.port.sentTo(7, INTERNAL_EVENTS.dutyState).at(-1)).toEqual([
      { onDuty: true, departmentId: BCSO.id, rankId: BCSO.deputy, since: START_TIME },
    ]);
  });

  it('refuses a department the player is not a member of with not_member and no panel call', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);

    running.port.requestDuty(7, 4, true, SAFR.id);
    await settle();

    expect(running.dutyResults(7)).toEqual([[4, expect.objectContaining({ ok: false, error: 'not_member' })]]);
    expect(running.calls().filter((call) => call.startsWith('POST'))).toEqual([]);
    expect(running.port.emitted(PUBLIC_EVENTS.playerOnDuty)).toEqual([]);
  });

  it('refuses going on duty without a department selected', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);

    running.port.requestDuty(7, 2, true, null);
    await settle();

    expect(running.dutyResults(7)).toEqual([
      [2, expect.objectContaining({ ok: false, error: 'no_department_selected' })],
    ]);
    expect(running.calls()).toHaveLength(1);
  });

  it.each([
    ['a string department id', [1, true, '1']],
    ['a string status', [1, 'true', LSPD.id]],
    ['an extra argument (a rank chosen by the client)', [1, true, LSPD.id, 99]],
    ['a department id beyond a 32-bit integer', [1, true, 2 ** 53]],
    ['a fractional department id', [1, true, 1.5]],
    ['a negative department id', [1, true, -1]],
    ['an object instead of an id', [1, true, { id: LSPD.id }]],
    ['missing arguments', [1]],
  ])('refuses a malformed duty request (%s) with invalid_request and no panel call', async (_name, args) => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);

    running.port.requestDuty(7, ...args);
    await settle();

    expect(running.dutyResults(7)).toEqual([[1, expect.objectContaining({ ok: false, error: 'invalid_request' })]]);
    expect(running.calls().filter((call) => call.startsWith('POST'))).toEqual([]);
    expect(running.bridge.duty.state(7).onDuty).toBe(false);
  });

  it('ignores a request whose request id is unusable, without answering or calling the panel', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);

    running.port.requestDuty(7, 'x', true, LSPD.id);
    running.port.requestDuty(7, -1, true, LSPD.id);
    running.port.requestDuty(7);
    await settle();

    expect(running.dutyResults(7)).toEqual([]);
    expect(running.calls().filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it('makes exactly one duty/on call for a double or concurrent request', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);

    running.port.requestDuty(7, 1, true, LSPD.id);
    running.port.requestDuty(7, 2, true, LSPD.id);
    await settle();
    running.port.requestDuty(7, 3, true, LSPD.id);
    await settle();

    expect(running.calls().filter((call) => call.startsWith('POST'))).toEqual([DUTY_ON]);
    expect(running.dutyResults(7).map(([id, outcome]) => [id, (outcome as { changed: boolean }).changed])).toEqual([
      [1, true],
      [2, false],
      [3, false],
    ]);
    expect(running.port.emitted(PUBLIC_EVENTS.playerOnDuty)).toHaveLength(1);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toHaveLength(1);
  });

  it('switches department while on duty as off then on, in that order, in game and in the panel', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    await elapse(60_000);

    running.port.requestDuty(7, 2, true, BCSO.id);
    await settle();

    expect(running.calls().filter((call) => call.startsWith('POST'))).toEqual([DUTY_ON, DUTY_OFF, DUTY_ON]);
    expect(running.port.localEvents.map(({ event, args }) => [event, ...args])).toEqual([
      [PUBLIC_EVENTS.playerOnDuty, 7, LSPD.id, LSPD.sergeant, false],
      [PUBLIC_EVENTS.playerOffDuty, 7, 'request', false],
      [PUBLIC_EVENTS.playerOnDuty, 7, BCSO.id, BCSO.deputy, false],
    ]);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([
      expect.objectContaining({ departmentId: LSPD.id, endedBy: 'off', durationMs: 60_000 }),
      expect.objectContaining({ departmentId: BCSO.id, rankId: BCSO.deputy, endedAt: null }),
    ]);
    expect(running.bridge.duty.state(7)).toMatchObject({ onDuty: true, departmentId: BCSO.id });
  });

  it('answers too_many_requests to a flood without calling the panel for it', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);

    for (let id = 1; id <= 20; id++) running.port.requestDuty(7, id, true, LSPD.id);
    await settle();

    const errors = running.dutyResults(7).map(([, outcome]) => (outcome as { error?: string }).error);
    expect(errors.filter((error) => error === 'too_many_requests')).toHaveLength(15);
    expect(errors.filter((error) => error === undefined)).toHaveLength(5);
    expect(running.calls().filter((call) => call.startsWith('POST'))).toEqual([DUTY_ON]);

    // An honest pace gets through again.
    await elapse(2_000);
    running.port.requestDuty(7, 21, false, null);
    await settle();
    expect(running.dutyResults(7).at(-1)).toEqual([21, expect.objectContaining({ ok: true, onDuty: false })]);
  });

  it('floods of malformed requests are refused without any panel call', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);

    for (let id = 1; id <= 10; id++) running.port.requestDuty(7, id, true, 'lspd');
    await settle();

    const errors = running.dutyResults(7).map(([, outcome]) => (outcome as { error?: string }).error);
    expect(errors).toEqual([...Array(5).fill('invalid_request'), ...Array(5).fill('too_many_requests')]);
    expect(running.calls()).toHaveLength(1);
  });
});

describe('going off duty (on duty → off duty)', () => {
  it('calls duty/off, fires playerOffDuty with the source and why, and tells the player', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();

    running.port.requestDuty(7, 2, false, null);
    await settle();

    expect(running.calls().filter((call) => call.startsWith('POST'))).toEqual([DUTY_ON, DUTY_OFF]);
    expect(running.port.emitted(PUBLIC_EVENTS.playerOffDuty)).toEqual([[7, 'request', false]]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.offDuty)).toEqual([[{ departmentId: LSPD.id, reason: 'request' }]]);
    expect(running.dutyResults(7).at(-1)).toEqual([
      2,
      { ok: true, changed: true, onDuty: false, departmentId: null, rankId: null, since: null },
    ]);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([
      expect.objectContaining({ departmentId: LSPD.id, endedBy: 'off' }),
    ]);
  });

  it('going off duty while off changes nothing and calls nothing', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);

    running.port.requestDuty(7, 1, false, null);
    await settle();

    expect(running.dutyResults(7)).toEqual([[1, expect.objectContaining({ ok: true, changed: false, onDuty: false })]]);
    expect(running.calls().filter((call) => call.startsWith('POST'))).toEqual([]);
    expect(running.port.emitted(PUBLIC_EVENTS.playerOffDuty)).toEqual([]);
  });
});

describe('disconnecting (any → off duty)', () => {
  it('a player who drops while on duty is taken off duty in the panel', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();

    running.port.drop(7);
    await settle();

    expect(running.calls().filter((call) => call.startsWith('POST'))).toEqual([DUTY_ON, DUTY_OFF]);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([expect.objectContaining({ endedBy: 'off' })]);
    expect(running.port.emitted(PUBLIC_EVENTS.playerOffDuty)).toEqual([[7, 'dropped', false]]);
    expect(running.bridge.players.get(7)).toBeUndefined();
  });

  it('a player who drops while off duty causes no panel call', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);

    running.port.drop(7);
    await settle();

    expect(running.calls().filter((call) => call.startsWith('POST'))).toEqual([]);
    expect(running.port.emitted(PUBLIC_EVENTS.playerOffDuty)).toEqual([]);
  });

  it('one player dropping leaves another on duty', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    await connect(running, 8, JAMIE);
    running.port.requestDuty(7, 1, true, LSPD.id);
    running.port.requestDuty(8, 1, true, SAFR.id);
    await settle();

    running.port.drop(7);
    await settle();

    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([expect.objectContaining({ endedBy: 'off' })]);
    expect(mock.panel.controls.sessions(ONE_DEPARTMENT)).toEqual([
      expect.objectContaining({ departmentId: SAFR.id, rankId: SAFR.captain, serverId: 8, endedAt: null }),
    ]);
    expect(running.bridge.duty.state(8)).toMatchObject({ onDuty: true, departmentId: SAFR.id });
  });
});
