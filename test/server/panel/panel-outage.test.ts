import { describe, expect, it } from 'vitest';
import { ALEX, BCSO, JAMIE, LSPD, playerWith, SAFR, TWO_DEPARTMENTS } from '../../../bench/support/demo-users.js';
import { PUBLIC_EVENTS } from '../../../shared/events.js';
import {
  connect,
  DUTY_OFF,
  DUTY_ON,
  type RunningBridge,
  startBridge,
  twoOffCallsWaitingInAnOutage,
  useMockPanel,
} from '../support/bridge-harness.js';
import { elapse, settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();

/** The longest gap between two probes, with its jitter. */
const PROBE_INTERVAL_MAX = 15_000;
const REQUEST_TIMEOUT = 5_000;

const requestCount = () => mock.panel.controls.requests().length;

/** A hanging panel: three joins each wait out the request timeout, and the bridge concludes it is down. */
async function panelGoesDown(running: RunningBridge) {
  mock.panel.controls.setOutage({ mode: 'hang' });
  for (const [src, chatId] of [
    [20, '700000000000000001'],
    [21, '700000000000000002'],
    [22, '700000000000000003'],
  ] as const) {
    running.port.join(src, playerWith(chatId));
  }
  await elapse(REQUEST_TIMEOUT);
  await settle();
}

describe('a panel that stops answering', () => {
  it('is told once after three failures in a row; then joins get their answer at once, without a request', async () => {
    const running = await startBridge(mock.panel);
    await panelGoesDown(running);
    expect(running.port.linesWith('the panel is unreachable')).toHaveLength(1);
    const before = requestCount();

    await connect(running, 7, ALEX);
    await connect(running, 8, JAMIE);

    // No request, no five-second wait: answered within the same instant.
    for (const src of [7, 8]) {
      expect(running.port.sentTo(src, PUBLIC_EVENTS.profile)).toEqual([
        [expect.objectContaining({ ok: false, error: 'panel_unavailable' })],
      ]);
    }
    expect(requestCount()).toBe(before);
  });

  it('refuses going on duty at once (DegradedMode refuse), keeping the player off duty', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    await panelGoesDown(running);

    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();

    expect(running.dutyResults(7)).toEqual([
      [1, { ok: false, error: 'panel_unavailable', message: expect.stringContaining('unreachable') }],
    ]);
    expect(running.bridge.duty.state(7).onDuty).toBe(false);
    expect(running.calls().filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it('probes by itself, backing off, and notices within the probe interval that the panel is back', async () => {
    const running = await startBridge(mock.panel);
    await panelGoesDown(running);
    const before = requestCount();
    await elapse(120_000);
    // A probe every few seconds at first, then every 15 s at most: a handful of requests for two minutes.
    const probes = requestCount() - before;
    expect(probes).toBeGreaterThanOrEqual(5);
    expect(probes).toBeLessThanOrEqual(14);

    mock.panel.controls.clearFaults();
    await elapse(PROBE_INTERVAL_MAX + REQUEST_TIMEOUT);
    expect(running.port.linesWith('the panel answers again')).toHaveLength(1);
    await connect(running, 7, ALEX);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toEqual([[expect.objectContaining({ ok: true })]]);
  });

  it('sends the duty calls that waited as soon as the probe sees the panel back, not after their backoff', async () => {
    const running = await startBridge(mock.panel);
    await twoOffCallsWaitingInAnOutage(mock.panel, running);
    await elapse(300_000);
    mock.panel.controls.clearFaults();

    // The next probe (at most 15 s away) sees the panel back, and both offs follow it at once, whatever backoff
    // they were in.
    let recoveredAt: number | undefined;
    let deliveredAt: number | undefined;
    for (let waited = 0; waited <= PROBE_INTERVAL_MAX + 1_000 && deliveredAt === undefined; waited += 250) {
      await elapse(250);
      if (recoveredAt === undefined && running.port.linesWith('the panel answers again').length > 0)
        recoveredAt = waited;
      if (running.answers().filter((answer) => answer === `${DUTY_OFF} 200`).length === 2) deliveredAt = waited;
    }
    expect(recoveredAt).toBeDefined();
    expect(deliveredAt).toBe(recoveredAt);
    expect(mock.panel.controls.sessions().every((session) => session.endedBy === 'off')).toBe(true);
  });

  it('gives the players who joined during the outage their profile once the panel answers again', async () => {
    const running = await startBridge(mock.panel);
    await panelGoesDown(running);
    await connect(running, 7, ALEX);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toEqual([
      [expect.objectContaining({ ok: false, error: 'panel_unavailable' })],
    ]);

    mock.panel.controls.clearFaults();
    await elapse(PROBE_INTERVAL_MAX + REQUEST_TIMEOUT);

    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile).at(-1)).toEqual([
      expect.objectContaining({ ok: true, chatId: TWO_DEPARTMENTS }),
    ]);
  });
});

describe('DegradedMode queue', () => {
  const queueMode = { config: { value: { DegradedMode: 'queue' } } };

  it('puts a player on duty at once from their cached profile; the panel learns it once it answers', async () => {
    const running = await startBridge(mock.panel, queueMode);
    await connect(running, 7, ALEX);
    await panelGoesDown(running);

    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    expect(running.dutyResults(7)).toEqual([[1, expect.objectContaining({ ok: true, onDuty: true })]]);
    expect(running.port.emitted(PUBLIC_EVENTS.playerOnDuty)).toEqual([[7, LSPD.id, LSPD.sergeant, false]]);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([]);

    mock.panel.controls.clearFaults();
    await elapse(PROBE_INTERVAL_MAX + REQUEST_TIMEOUT);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([
      expect.objectContaining({ departmentId: LSPD.id, rankId: LSPD.sergeant, endedAt: null }),
    ]);
    expect(running.bridge.duty.state(7).onDuty).toBe(true);
  });

  it('still refuses a department the cached profile does not grant, and a player without a profile', async () => {
    const running = await startBridge(mock.panel, queueMode);
    await connect(running, 7, ALEX);
    await panelGoesDown(running);
    await connect(running, 8, JAMIE);

    running.port.requestDuty(7, 1, true, SAFR.id);
    running.port.requestDuty(8, 1, true, SAFR.id);
    await settle();

    expect(running.dutyResults(7)).toEqual([[1, expect.objectContaining({ ok: false, error: 'not_member' })]]);
    expect(running.dutyResults(8)).toEqual([[1, expect.objectContaining({ ok: false, error: 'profile_unavailable' })]]);
  });

  it('takes the player off duty again when the panel, back, refuses the duty (the roles changed meanwhile)', async () => {
    const running = await startBridge(mock.panel, queueMode);
    await connect(running, 7, ALEX);
    await panelGoesDown(running);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    // Alex lost every LSPD role while the panel was unreachable.
    mock.panel.controls.setRoles(TWO_DEPARTMENTS, []);

    mock.panel.controls.clearFaults();
    await elapse(PROBE_INTERVAL_MAX + REQUEST_TIMEOUT);

    expect(running.bridge.duty.state(7).onDuty).toBe(false);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.offDuty)).toEqual([
      [{ departmentId: LSPD.id, reason: 'department_removed' }],
    ]);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([]);
    expect(running.port.linesWith('refused the duty of player 7')).toHaveLength(1);
  });

  it('ends the duty of the session it replaced when the panel, back, refuses a queued duty of the same account', async () => {
    const running = await startBridge(mock.panel, queueMode);
    await connect(running, 7, ALEX);
    await connect(running, 9, playerWith(TWO_DEPARTMENTS, 'Alex (second game account)'));
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    await panelGoesDown(running);
    // The second session goes on duty while the panel is unreachable: the first goes off duty in game only, the
    // panel still has its LSPD duty until the queued BCSO duty replaces it there.
    running.port.requestDuty(9, 1, true, BCSO.id);
    await settle();
    expect(running.bridge.duty.state(7).onDuty).toBe(false);
    // Alex lost every role meanwhile: the panel refuses the queued duty.
    mock.panel.controls.setRoles(TWO_DEPARTMENTS, []);

    mock.panel.controls.clearFaults();
    await elapse(PROBE_INTERVAL_MAX + REQUEST_TIMEOUT);
    await elapse(60_000);

    expect(running.bridge.duty.state(9).onDuty).toBe(false);
    // Nobody of the account is on duty in game, so nobody is at the panel either.
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS).filter((session) => session.endedAt === null)).toEqual([]);
  });

  it('starts the duty of a player who was waiting when the panel went down', async () => {
    const running = await startBridge(mock.panel, queueMode);
    await connect(running, 7, ALEX);
    mock.panel.controls.setOutage({ mode: 'reset' });

    running.port.requestDuty(7, 1, true, LSPD.id);
    // The on fails, is retried, and the third failure in a row opens the circuit: the duty starts then.
    await elapse(3_000);
    expect(running.dutyResults(7)).toEqual([[1, expect.objectContaining({ ok: true, onDuty: true })]]);

    mock.panel.controls.clearFaults();
    await elapse(PROBE_INTERVAL_MAX + REQUEST_TIMEOUT);
    expect(
      running
        .answers()
        .filter((answer) => answer.startsWith(DUTY_ON))
        .at(-1),
    ).toBe(`${DUTY_ON} 200`);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([expect.objectContaining({ endedAt: null })]);
  });
});
