import { getResponse, HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { createMockPanel } from '../../mock-panel';
import { handlerDispatch } from '../../mock-panel/server/handler-dispatch';
import { departmentsPath, dutyPath } from '../../shared/contract';
import { TWO_DEPARTMENTS, UNKNOWN_USER } from './support/demo-users';
import { createFakeClock } from './support/fake-clock';

const TOKEN = 'dispatch-token';
const BASE = 'http://panel.test';

const requests: { name: string; request: () => Request }[] = [
  { name: 'departments', request: () => get(departmentsPath(TWO_DEPARTMENTS)) },
  { name: 'departments of an unknown user', request: () => get(departmentsPath(UNKNOWN_USER)) },
  { name: 'departments with a malformed chat id', request: () => get('/api/leo/user/%E0%A4/departments') },
  { name: 'departments without the token', request: () => get(departmentsPath(TWO_DEPARTMENTS), 'nope') },
  { name: 'departments with POST', request: () => post(departmentsPath(TWO_DEPARTMENTS), {}) },
  {
    name: 'duty on',
    request: () => post(dutyPath('on'), { chatId: TWO_DEPARTMENTS, departmentId: 1, rankId: 2 }),
  },
  { name: 'duty with a bad body', request: () => post(dutyPath('off'), { chatId: 'x' }) },
  { name: 'an unknown /api/leo path', request: () => get('/api/leo/nothing') },
  { name: 'a control route', request: () => get('/__mock/faults') },
];

function get(path: string, token = TOKEN): Request {
  return new Request(`${BASE}${path}`, { headers: { authorization: `Bearer ${token}` } });
}

function post(path: string, body: object): Request {
  return new Request(`${BASE}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function seen(response: Response | undefined) {
  return response && { status: response.status, headers: [...response.headers], body: await response.text() };
}

describe('handlerDispatch, as the node:http server resolves requests', () => {
  it("answers every request as msw's getResponse does, headers and bytes alike", async () => {
    // Two panels on one clock, one asked through msw and one through the dispatch: the same state, request by request.
    const clock = createFakeClock(Date.UTC(2025, 5, 1, 20, 0, 0));
    const viaMsw = createMockPanel({ token: TOKEN, baseUrl: BASE, now: clock.now });
    const viaDispatch = createMockPanel({ token: TOKEN, baseUrl: BASE, now: clock.now });
    const dispatch = handlerDispatch(viaDispatch.handlers);
    for (const { name, request } of requests) {
      const expected = await seen(await getResponse(viaMsw.handlers, request()));
      expect({ name, answer: await seen(await dispatch(request())) }).toEqual({ name, answer: expected });
    }
    // The log's latency is wall time, the one thing the two runs need not share.
    const logged = (panel: typeof viaMsw) => panel.store.requests.list().map(({ latencyMs: _, ...entry }) => entry);
    expect(logged(viaDispatch)).toEqual(logged(viaMsw));
    expect(logged(viaDispatch)).toHaveLength(requests.length - 1);
  });

  it('asks handlers placed before the panel first, even for a panel route', async () => {
    const panel = createMockPanel({ token: TOKEN, baseUrl: BASE });
    const before = http.get(`${BASE}/api/leo/user/:chatId/departments`, () => HttpResponse.text('first'));
    const dispatch = handlerDispatch([before, ...panel.handlers]);
    const answer = await dispatch(get(departmentsPath(TWO_DEPARTMENTS)));
    expect(await answer?.text()).toBe('first');
    expect(panel.store.requests.list()).toEqual([]);
  });

  it('answers nothing for a request no handler matches', async () => {
    const panel = createMockPanel({ token: TOKEN, baseUrl: BASE });
    expect(await handlerDispatch(panel.handlers)(get('/elsewhere'))).toBeUndefined();
  });
});
