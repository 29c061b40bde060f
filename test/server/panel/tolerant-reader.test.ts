// Issue 12, item 11: the bridge works with a real panel, not only with our mock. The spec promises `ok` in every
// body and shows neither the department data nor the duty answer, so the bridge checks only what it uses.
import { HttpResponse, http, type JsonBodyType } from 'msw';
import { describe, expect, it } from 'vitest';
import { ALEX, TWO_DEPARTMENTS } from '../../../bench/support/demo-users.js';
import { PUBLIC_EVENTS } from '../../../shared/events.js';
import { connect, PANEL_URL, startBridge, useMockPanel } from '../support/bridge-harness.js';
import { elapse, settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();

type DutyAnswer = (action: string, body: Record<string, unknown>) => JsonBodyType;

/**
 * A panel of our own making: `departments` for Alex (404 for anyone else, the start-up probe too), `duty` for every
 * duty call. It records the duty calls it received.
 */
function customPanel(departmentsBody: JsonBodyType, duty: DutyAnswer) {
  const dutyCalls: Array<[string, Record<string, unknown>]> = [];
  mock.use(
    http.get(`${PANEL_URL}/api/leo/user/:chatId/departments`, ({ params }) =>
      params.chatId === TWO_DEPARTMENTS
        ? HttpResponse.json(departmentsBody)
        : HttpResponse.json({ ok: false, error: 'user_not_found', message: 'no such user' }, { status: 404 }),
    ),
    http.post(`${PANEL_URL}/api/leo/duty/:action`, async ({ request, params }) => {
      const body = (await request.json()) as Record<string, unknown>;
      dutyCalls.push([String(params.action), body]);
      return HttpResponse.json(duty(String(params.action), body));
    }),
  );
  return dutyCalls;
}

/** Connects Alex, goes on duty in department 1, waits a while (a retried call would show), goes off duty. */
async function onAndOff(dutyCalls: Array<[string, Record<string, unknown>]>) {
  const running = await startBridge(mock.panel);
  await connect(running, 7, ALEX);
  running.port.requestDuty(7, 1, true, 1);
  await settle();
  await elapse(5 * 60_000);
  const onCalls = dutyCalls.length;
  const onState = running.bridge.duty.state(7);
  running.port.requestDuty(7, 2, false, null);
  await settle();
  await elapse(5 * 60_000);
  return { running, onCalls, onState };
}

describe('a panel that answers only what the spec shows', () => {
  it('loads the profile, goes on duty on `{ ok: true }`, goes off duty, each call sent once', async () => {
    const dutyCalls = customPanel(
      // No user, no rank name, no data: the department and rank ids the spec implies, slug and name for the game.
      { ok: true, departments: [{ id: 1, slug: 'lspd', name: 'LSPD', rank: { id: 2 } }] },
      () => ({ ok: true }),
    );
    const { running, onCalls, onState } = await onAndOff(dutyCalls);

    // The first profile; the cache's refresh after 5 minutes sends the same again.
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)[0]).toEqual([
      {
        ok: true,
        chatId: TWO_DEPARTMENTS,
        fetchedAt: expect.any(Number),
        departments: [{ id: 1, slug: 'lspd', name: 'LSPD', rank: { id: 2, name: 'rank 2' } }],
      },
    ]);
    expect(onCalls).toBe(1);
    expect(onState).toMatchObject({ onDuty: true, departmentId: 1, rankId: 2 });
    expect(running.dutyResults(7)).toEqual([
      [1, expect.objectContaining({ ok: true, changed: true, onDuty: true, departmentId: 1, rankId: 2 })],
      [2, expect.objectContaining({ ok: true, changed: true, onDuty: false })],
    ]);
    expect(dutyCalls.map(([action, body]) => [action, body.departmentId])).toEqual([
      ['on', 1],
      ['off', 1],
    ]);
    expect(running.port.emitted(PUBLIC_EVENTS.playerOnDuty)).toEqual([[7, 1, 2, false]]);
    expect(running.port.emitted(PUBLIC_EVENTS.playerOffDuty)).toEqual([[7, 'request', false]]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.deptData)).toEqual([
      [{ departmentId: 1, slug: 'lspd', name: 'LSPD', rank: { id: 2, name: 'rank 2' }, data: {} }],
    ]);
  });
});

describe('a panel that adds unknown fields and data of its own shape', () => {
  const data = {
    vehicles: ['police', 'police2', { model: 'police3' }],
    uniforms: 'see the locker room',
    radio: { channel: 7, codes: [10, null, 'x'] },
  };
  const departments = {
    ok: true,
    version: '2.4.1',
    user: { id: 'u_1', displayName: 'Alex', avatar: null },
    departments: [
      { id: 1, slug: 'lspd', name: 'LSPD', colour: '#123456', rank: { id: 2, name: 'Sergeant', grade: 'E-5' }, data },
    ],
  };

  it('passes `data` through to deptData exactly as the panel sent it and reads duty answers without `since`', async () => {
    const dutyCalls = customPanel(departments, (action, body) =>
      action === 'on'
        ? { ok: true, requestId: 'r1', duty: { onDuty: true, departmentId: body.departmentId, rankId: body.rankId } }
        : { ok: true, requestId: 'r2', duty: { onDuty: false, departmentId: null, rankId: null, minutes: 5 } },
    );
    const { running, onCalls, onState } = await onAndOff(dutyCalls);

    expect(onCalls).toBe(1);
    expect(onState).toMatchObject({ onDuty: true, departmentId: 1, rankId: 2 });
    expect(running.port.sentTo(7, PUBLIC_EVENTS.deptData)).toEqual([
      [{ departmentId: 1, slug: 'lspd', name: 'LSPD', rank: { id: 2, name: 'Sergeant' }, data }],
    ]);
    expect(dutyCalls.map(([action]) => action)).toEqual(['on', 'off']);
    expect(running.bridge.duty.state(7)).toMatchObject({ onDuty: false });
  });

  it('refuses a duty answer that names another department, once, with a clear line, and ends that duty', async () => {
    const dutyCalls = customPanel(departments, (action) =>
      action === 'on' ? { ok: true, duty: { onDuty: true, departmentId: 2, rankId: 4 } } : { ok: true },
    );
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, 1);
    await settle();
    await elapse(5 * 60_000);

    // The panel says it opened a duty the game does not have: with no other session of the account on duty, the
    // bridge ends whatever duty the account has there, and sends the refused call no more.
    expect(dutyCalls).toEqual([
      ['on', expect.objectContaining({ departmentId: 1, rankId: 2 })],
      ['off', { chatId: TWO_DEPARTMENTS }],
    ]);
    expect(running.dutyResults(7)).toEqual([[1, expect.objectContaining({ ok: false, error: 'panel_refused' })]]);
    expect(running.bridge.duty.state(7)).toMatchObject({ onDuty: false });
    expect(running.port.emitted(PUBLIC_EVENTS.playerOnDuty)).toEqual([]);
    const lines = running.port.linesWith('department 2');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/WARN: .*duty on .*names department 2 rank 4 where department 1 rank 2 was asked/);
  });

  it('refuses a duty answer that names another rank', async () => {
    customPanel(departments, (_action, body) => ({
      ok: true,
      duty: { onDuty: true, departmentId: body.departmentId, rankId: 3 },
    }));
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, 1);
    await settle();
    expect(running.dutyResults(7)).toEqual([[1, expect.objectContaining({ ok: false, error: 'panel_refused' })]]);
  });

  it('leaves out a department without the fields the bridge needs, with one warning naming it, and keeps the others', async () => {
    customPanel(
      {
        ok: true,
        departments: [
          { id: 1, name: 'LSPD', rank: { id: 2 } },
          { id: 2, slug: 'bcso', name: 'BCSO', rank: { id: 4, name: 'Deputy' } },
        ],
      },
      () => ({ ok: true }),
    );
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    running.port.requestRefresh(7);
    await settle();

    const profiles = running.port.sentTo(7, PUBLIC_EVENTS.profile).flat();
    expect(profiles.at(-1)).toMatchObject({ ok: true, departments: [{ id: 2, slug: 'bcso', rank: { id: 4 } }] });
    expect(profiles.at(-1)).toMatchObject({ departments: expect.toSatisfy((list: unknown[]) => list.length === 1) });
    const told = running.port.linesWith('left out');
    expect(told).toEqual([expect.stringMatching(new RegExp(`WARN: .*department id 1 .*${TWO_DEPARTMENTS}.*slug`))]);
  });
});

describe('a panel that sends its ids as text', () => {
  const AS_TEXT = {
    ok: true,
    departments: [
      { id: '1', slug: 'lspd', name: 'LSPD', rank: { id: '2', name: 'Sergeant' } },
      { id: 2, slug: 'bcso', name: 'BCSO', rank: { id: '4', name: 'Deputy' } },
    ],
  };

  it('reads decimal ids as the integers they are, and sends numbers in its duty calls', async () => {
    const dutyCalls = customPanel(AS_TEXT, (action) =>
      action === 'on' ? { ok: true, duty: { onDuty: true, departmentId: '1', rankId: '2' } } : { ok: true },
    );
    const { running, onState } = await onAndOff(dutyCalls);

    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)[0]).toEqual([
      expect.objectContaining({
        ok: true,
        departments: [
          { id: 1, slug: 'lspd', name: 'LSPD', rank: { id: 2, name: 'Sergeant' } },
          { id: 2, slug: 'bcso', name: 'BCSO', rank: { id: 4, name: 'Deputy' } },
        ],
      }),
    ]);
    expect(onState).toMatchObject({ onDuty: true, departmentId: 1, rankId: 2 });
    expect(dutyCalls.map(([action, body]) => [action, body.departmentId, body.rankId])).toEqual([
      ['on', 1, 2],
      ['off', 1, undefined],
    ]);
    expect(running.port.lines.filter((line) => / (WARN|ERROR): /.test(line) && !line.includes('http://'))).toEqual([]);
  });

  it('a duty answer naming another department as text is still a contradiction', async () => {
    customPanel(AS_TEXT, () => ({ ok: true, duty: { onDuty: true, departmentId: '2', rankId: '4' } }));
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, 1);
    await settle();
    expect(running.dutyResults(7)).toEqual([[1, expect.objectContaining({ ok: false, error: 'panel_refused' })]]);
  });

  it('leaves out only the department whose id is not a number, once told', async () => {
    const body = {
      ok: true,
      departments: [{ ...AS_TEXT.departments[0], id: 'lspd-1' }, AS_TEXT.departments[1], { id: '1e3', slug: 'x' }],
    };
    customPanel(body, () => ({ ok: true }));
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    await elapse(5 * 60_000 + 1);
    running.port.requestRefresh(7);
    await settle();

    const profiles = running.port.sentTo(7, PUBLIC_EVENTS.profile).flat();
    expect(profiles).toHaveLength(2);
    for (const profile of profiles) {
      expect(profile).toMatchObject({ ok: true });
      expect((profile as { departments: Array<{ id: number }> }).departments.map((d) => d.id)).toEqual([2]);
    }
    expect(running.port.linesWith('left out')).toEqual([
      expect.stringMatching(/WARN: .*"lspd-1".*"lspd"/),
      expect.stringMatching(/WARN: .*"1e3".*"x"/),
    ]);
  });
});
