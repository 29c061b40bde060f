import { describe, expect, it } from 'vitest';
import { ALEX, BCSO, JAMIE, LSPD, ONE_DEPARTMENT, ROLES, TWO_DEPARTMENTS } from '../../../bench/support/demo-users.js';
import { PUBLIC_EVENTS } from '../../../shared/events.js';
import {
  connect,
  DUTY_OFF,
  DUTY_ON,
  departmentsCall,
  startBridge,
  twoOffCallsWaitingInAnOutage,
  useMockPanel,
} from '../support/bridge-harness.js';
import { elapse, START_TIME, settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();

const FIVE_MINUTES = 300_000;
/** How long a player waits for the panel to accept going on duty: twice the request timeout. */
const ON_DUTY_WAIT = 10_000;
/** The longest gap between two probes of an unreachable panel. */
const PROBE_INTERVAL_MAX = 15_000;

const PANEL_FAULTS = {
  'a 500': () => mock.panel.controls.injectErrors({ error: 'internal_error' }),
  'a timeout (latency past RequestTimeoutMs)': () => mock.panel.controls.setLatency(60_000),
  'an outage (connection reset)': () => mock.panel.controls.setOutage({ mode: 'reset' }),
  'a proxy’s HTML 404 page': () => mock.panel.controls.setOutage({ mode: 'proxy_404' }),
};

describe.each(Object.entries(PANEL_FAULTS))('when the panel fails with %s', (_name, breakPanel) => {
  it('a joining player gets panel_unavailable once the answer is given up, and the owner is told once', async () => {
    const running = await startBridge(mock.panel);
    breakPanel();

    await connect(running, 7, ALEX);
    await connect(running, 8, JAMIE);
    await elapse(15_000);

    for (const src of [7, 8]) {
      expect(running.port.sentTo(src, PUBLIC_EVENTS.profile)).toEqual([
        [{ ok: false, error: 'panel_unavailable', message: expect.stringContaining('/dutyrefresh') }],
      ]);
    }
    expect(running.port.linesWith('could not be asked for profiles')).toHaveLength(1);
  });

  it('a player whose profile expired keeps the last one known', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    await elapse(FIVE_MINUTES + 1);
    breakPanel();

    running.port.clientReady(7);
    await elapse(15_000);

    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toEqual([
      [expect.objectContaining({ ok: true, fetchedAt: START_TIME })],
      [expect.objectContaining({ ok: true, fetchedAt: START_TIME })],
    ]);
  });

  it('going on duty is refused with panel_unavailable after the wait, and the player stays off duty', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    breakPanel();

    running.port.requestDuty(7, 1, true, LSPD.id);
    await elapse(ON_DUTY_WAIT - 1);
    expect(running.dutyResults(7)).toEqual([]);

    await elapse(1);
    expect(running.dutyResults(7)).toEqual([[1, expect.objectContaining({ ok: false, error: 'panel_unavailable' })]]);
    expect(running.bridge.duty.state(7).onDuty).toBe(false);
    expect(running.port.emitted(PUBLIC_EVENTS.playerOnDuty)).toEqual([]);
  });

  it('going off duty takes effect in game at once and reaches the panel once it is back', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    breakPanel();

    running.port.requestDuty(7, 2, false, null);
    await settle();
    expect(running.dutyResults(7).at(-1)).toEqual([2, expect.objectContaining({ ok: true, onDuty: false })]);
    expect(running.port.emitted(PUBLIC_EVENTS.playerOffDuty)).toEqual([[7, 'request', false]]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.offDuty)).toHaveLength(1);

    await elapse(120_000);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([expect.objectContaining({ endedAt: null })]);

    mock.panel.controls.clearFaults();
    await elapse(60_000);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([expect.objectContaining({ endedBy: 'off' })]);
    expect(running.answers().filter((answer) => answer.endsWith(' 200'))).toEqual([
      `${departmentsCall(TWO_DEPARTMENTS)} 200`,
      `${DUTY_ON} 200`,
      `${DUTY_OFF} 200`,
    ]);
  });
});

describe('duty calls across a panel outage', () => {
  it('delivers a queued off and a later on in the order the player made them', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    mock.panel.controls.setOutage({ mode: 'reset' });

    running.port.requestDuty(7, 2, false, null);
    await elapse(1_000);
    running.port.requestDuty(7, 3, true, BCSO.id);
    await elapse(1_000);
    mock.panel.controls.clearFaults();
    await elapse(5_000);

    expect(running.dutyResults(7).at(-1)).toEqual([3, expect.objectContaining({ ok: true, departmentId: BCSO.id })]);
    expect(running.answers().filter((answer) => answer.startsWith('POST') && answer.endsWith(' 200'))).toEqual([
      `${DUTY_ON} 200`,
      `${DUTY_OFF} 200`,
      `${DUTY_ON} 200`,
    ]);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([
      expect.objectContaining({ departmentId: LSPD.id, endedBy: 'off' }),
      expect.objectContaining({ departmentId: BCSO.id, endedAt: null }),
    ]);
  });

  it('keeps each player’s calls in order while delivering every player’s', async () => {
    const running = await startBridge(mock.panel);
    await twoOffCallsWaitingInAnOutage(mock.panel, running);
    await elapse(30_000);
    mock.panel.controls.clearFaults();
    await elapse(60_000);

    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([expect.objectContaining({ endedBy: 'off' })]);
    expect(mock.panel.controls.sessions(ONE_DEPARTMENT)).toEqual([expect.objectContaining({ endedBy: 'off' })]);
  });

  it('a player who tries again after a refused on ends up on duty in game and in the panel', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    mock.panel.controls.setOutage({ mode: 'reset' });

    running.port.requestDuty(7, 1, true, LSPD.id);
    await elapse(ON_DUTY_WAIT);
    expect(running.dutyResults(7)).toEqual([[1, expect.objectContaining({ error: 'panel_unavailable' })]]);

    mock.panel.controls.clearFaults();
    // The bridge notices the panel is back with its next probe (at most 15 s apart, plus jitter).
    await elapse(PROBE_INTERVAL_MAX);
    running.port.requestDuty(7, 2, true, LSPD.id);
    await elapse(ON_DUTY_WAIT);
    await elapse(120_000);

    expect(running.dutyResults(7).at(-1)).toEqual([2, expect.objectContaining({ ok: true, onDuty: true })]);
    expect(running.bridge.duty.state(7).onDuty).toBe(true);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS).at(-1)).toMatchObject({
      departmentId: LSPD.id,
      endedAt: null,
    });
  });

  it('a player who gave up waiting for a slow panel is not left on duty there', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    // Every answer comes too late: the panel applies the call, the bridge never hears of it.
    mock.panel.controls.setLatency(6_000);

    running.port.requestDuty(7, 1, true, LSPD.id);
    await elapse(ON_DUTY_WAIT);
    expect(running.dutyResults(7)).toEqual([[1, expect.objectContaining({ error: 'panel_unavailable' })]]);

    mock.panel.controls.clearFaults();
    await elapse(60_000);

    expect(running.bridge.duty.state(7).onDuty).toBe(false);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS).every((session) => session.endedAt !== null)).toBe(true);
  });

  it('holds a duty call the budget says the panel would refuse until the window resets, instead of collecting a 429', async () => {
    const panel = mock.replace({ rateLimit: { limit: 3, windowMs: 60_000 } });
    const running = await startBridge(panel);
    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();

    // The probe, the profile and the on used the panel's 3 requests of this window (its headers said so).
    running.port.requestDuty(7, 2, false, null);
    await settle();
    expect(running.bridge.duty.state(7).onDuty).toBe(false);
    await elapse(59_000);
    expect(running.calls().filter((call) => call === DUTY_OFF)).toEqual([]);

    await elapse(1_000);
    expect(running.answers().at(-1)).toBe(`${DUTY_OFF} 200`);
    expect(panel.controls.requests().filter((entry) => entry.status === 429)).toEqual([]);
    expect(panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([expect.objectContaining({ endedBy: 'off' })]);
  });

  it('fetches the profile again when the panel rejects a cached rank, and goes on duty with the new rank', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    mock.panel.controls.setRoles(TWO_DEPARTMENTS, [ROLES.lspdMember, ROLES.lspdLieutenant]);

    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    expect(running.answers().filter((answer) => answer.startsWith('POST'))).toEqual([
      `${DUTY_ON} 400`,
      `${DUTY_ON} 200`,
    ]);
    expect(running.dutyResults(7)).toEqual([[1, expect.objectContaining({ ok: true, rankId: LSPD.lieutenant })]]);
    expect(running.port.emitted(PUBLIC_EVENTS.playerOnDuty)).toEqual([[7, LSPD.id, LSPD.lieutenant, false]]);
    const profiles = running.port.sentTo(7, PUBLIC_EVENTS.profile);
    expect(profiles.at(-1)).toEqual([expect.objectContaining({ ok: true })]);
    expect(JSON.stringify(profiles.at(-1))).toContain('Lieutenant');
  });

  it('refuses with panel_refused when the panel still refuses after the profile was fetched again', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    mock.panel.controls.setRoles(TWO_DEPARTMENTS, [ROLES.lspdMember, ROLES.lspdLieutenant]);
    mock.panel.controls.injectErrors({ error: 'rank_mismatch' });

    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    expect(running.dutyResults(7)).toEqual([[1, expect.objectContaining({ ok: false, error: 'panel_refused' })]]);
    expect(running.bridge.duty.state(7).onDuty).toBe(false);
  });
});
