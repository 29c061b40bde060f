// No header can park a duty call: whatever wait the panel (or a proxy in front of it) asks for, the bridge waits at
// most the outbox's backoff cap, and says once that it did not wait as long as it was told.
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ALEX, JAMIE, LSPD, SAFR, TWO_DEPARTMENTS } from '../../../bench/support/demo-users.js';
import { LONGEST_WAIT_MS } from '../../../server/kernel/time.js';
import { connect, DUTY_OFF, departmentsCall, PANEL_URL, startBridge, useMockPanel } from '../support/bridge-harness.js';
import { elapse, settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();

const AN_HOUR_S = '3600';

const maintenance = (status: number, headers: Record<string, string>) =>
  HttpResponse.json({ ok: false, error: 'service_unavailable', message: 'maintenance' }, { status, headers });

describe('a panel that asks the bridge to wait an hour', () => {
  it('a 503 with Retry-After 3600 on an off: the off reaches the panel within the cap, and the owner is told once', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    mock.use(
      http.post(`${PANEL_URL}/api/leo/duty/off`, () => maintenance(503, { 'Retry-After': AN_HOUR_S }), { once: true }),
    );

    running.port.requestDuty(7, 2, false, null);
    await settle();
    expect(running.bridge.duty.state(7).onDuty).toBe(false);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([expect.objectContaining({ endedAt: null })]);

    await elapse(LONGEST_WAIT_MS);
    await settle();
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([expect.objectContaining({ endedBy: 'off' })]);
    expect(running.answers().at(-1)).toBe(`${DUTY_OFF} 200`);
    const told = running.port.linesWith('Retry-After: 3600');
    expect(told).toEqual([expect.stringMatching(/WARN: .*Retry-After: 3600.* 60 s/)]);

    // The next such answer is capped the same way, without another line.
    running.port.requestDuty(7, 3, true, LSPD.id);
    await settle();
    mock.use(
      http.post(`${PANEL_URL}/api/leo/duty/off`, () => maintenance(503, { 'Retry-After': AN_HOUR_S }), { once: true }),
    );
    running.port.requestDuty(7, 4, false, null);
    await settle();
    await elapse(LONGEST_WAIT_MS);
    await settle();
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS).map((session) => session.endedBy)).toEqual(['off', 'off']);
    expect(running.port.linesWith('Retry-After: 3600')).toHaveLength(1);
  });

  it('a 429 with Retry-After 3600 holds the requests for the cap, not the hour', async () => {
    const running = await startBridge(mock.panel);
    mock.use(
      http.get(`${PANEL_URL}/api/leo/user/:chatId/departments`, () => maintenance(429, { 'Retry-After': AN_HOUR_S }), {
        once: true,
      }),
    );
    await connect(running, 7, ALEX);
    await connect(running, 8, JAMIE);
    await elapse(LONGEST_WAIT_MS);
    await settle();
    expect(running.answers()).toEqual(
      expect.arrayContaining([`${departmentsCall(TWO_DEPARTMENTS)} 200`, expect.stringMatching(/departments 200$/)]),
    );
    expect(running.answers().filter((answer) => answer.endsWith(' 200'))).toHaveLength(2);
    expect(running.port.linesWith('Retry-After: 3600')).toHaveLength(1);
  });

  it('a reset header an hour away with nothing left in the window holds an off for the cap, not the hour', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    // One answer says the window is spent and resets in an hour.
    mock.use(
      http.post(
        `${PANEL_URL}/api/leo/duty/off`,
        () => maintenance(503, { 'RateLimit-Limit': '200', 'RateLimit-Remaining': '0', 'RateLimit-Reset': AN_HOUR_S }),
        { once: true },
      ),
    );
    running.port.requestDuty(7, 2, false, null);
    await settle();
    await elapse(LONGEST_WAIT_MS);
    await settle();
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([expect.objectContaining({ endedBy: 'off' })]);
    expect(running.port.linesWith('RateLimit-Reset: 3600')).toEqual([expect.stringMatching(/WARN: .* 60 s/)]);
  });
  it('a policy window of a day with nothing left and no reset holds a duty call for the cap, not the day', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    // Every duty answer says yes, that the window is a day long and spent, and not when it resets.
    const aDay = { 'RateLimit-Policy': '200;w=86400', 'RateLimit-Limit': '200', 'RateLimit-Remaining': '0' };
    let dutyCalls = 0;
    mock.use(
      http.post(`${PANEL_URL}/api/leo/duty/:action`, () => {
        dutyCalls += 1;
        return HttpResponse.json({ ok: true }, { headers: aDay });
      }),
    );
    await connect(running, 8, JAMIE);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    // The window the bridge opened with its first request ends; the next one is opened by Jamie's on.
    await elapse(LONGEST_WAIT_MS + 1_000);
    running.port.requestDuty(8, 1, true, SAFR.id);
    await settle();
    expect(dutyCalls).toBe(2);

    running.port.requestDuty(7, 2, false, null);
    await settle();
    await elapse(LONGEST_WAIT_MS);
    await settle();
    expect(dutyCalls).toBe(3);
    expect(running.port.linesWith('RateLimit-Policy: 200;w=86400')).toEqual([expect.stringMatching(/WARN: .* 60 s/)]);
  });
});
