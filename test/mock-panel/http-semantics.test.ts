import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlErrorBodySchema } from '../../mock-panel';
import { DepartmentsResponseSchema, departmentsPath, dutyPath, ErrorBodySchema } from '../../shared/contract';
import { LSPD, TWO_DEPARTMENTS } from './support/demo-users';
import { bodyOf, type RunningPanel, TRANSPORTS } from './support/panel-transports';

// What any HTTP client (curl, a browser, an HTTP library) expects of the panel beyond the contract's bodies:
// a challenge on 401, 405 with Allow, HEAD and OPTIONS.

describe.each(TRANSPORTS)('the mock panel as HTTP clients expect it, $name', (transport) => {
  let running: RunningPanel;
  beforeAll(async () => {
    running = await transport.start();
  });
  afterAll(() => running.stop());

  const departments = departmentsPath(TWO_DEPARTMENTS);

  describe('a 401 carries a bearer challenge (RFC 6750)', () => {
    it('without a token: the bare challenge, no error code', async () => {
      const response = await running.client.get(departments, { headers: { authorization: undefined } });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="api/leo"');
    });

    it('with another scheme: the bare challenge', async () => {
      const response = await running.client.get(departments, { headers: { authorization: 'Basic dXNlcjpwdw==' } });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="api/leo"');
    });

    it('with a wrong token: error="invalid_token"', async () => {
      const response = await running.client.post(dutyPath('on'), {}, { headers: { authorization: 'Bearer nope' } });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="api/leo", error="invalid_token"');
    });

    it('a missing and a wrong token get different bodies, each saying what to send', async () => {
      const missing = await running.client.get(departments, { headers: { authorization: undefined } });
      const wrong = await running.client.get(departments, { headers: { authorization: 'Bearer nope' } });
      const missingBody = await bodyOf(missing, ErrorBodySchema);
      const wrongBody = await bodyOf(wrong, ErrorBodySchema);
      expect([missingBody.error, wrongBody.error]).toEqual(['unauthorized', 'unauthorized']);
      expect(missingBody.message).toBe('no bearer token: send Authorization: Bearer <LEO_API_TOKEN>');
      expect(wrongBody.message).toBe("the bearer token is not this panel's LEO_API_TOKEN");
    });

    it('an injected 401 too', async () => {
      running.panel.controls.injectErrors({ error: 'unauthorized' });
      try {
        const response = await running.client.get(departments);
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe('Bearer realm="api/leo", error="invalid_token"');
      } finally {
        running.panel.controls.clearFaults();
      }
    });
  });

  describe('a known path with a method it does not take answers 405 with Allow', () => {
    it.each([
      ['POST', departments, 'GET, HEAD, OPTIONS'],
      ['DELETE', departments, 'GET, HEAD, OPTIONS'],
      ['GET', dutyPath('on'), 'POST, OPTIONS'],
      ['PUT', dutyPath('off'), 'POST, OPTIONS'],
      ['PATCH', '/api/leo/duty/maybe', 'POST, OPTIONS'],
    ])('%s %s', async (method, path, allow) => {
      const response = await running.client.request(path, { method, headers: { authorization: undefined } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe(allow);
      const body = await bodyOf(response, ErrorBodySchema);
      expect(body.error).toBe('method_not_allowed');
      expect(body.message).toBe(`${new URL(path, 'http://x').pathname} takes ${allow}, not ${method}`);
    });

    it('an unknown path is still 404', async () => {
      const response = await running.client.request('/api/leo/nothing', { method: 'PUT' });
      expect(response.status).toBe(404);
      expect(response.headers.get('allow')).toBeNull();
    });
  });

  describe('HEAD is GET without the body', () => {
    it('with the status, type and length the GET has', async () => {
      const get = await running.client.get(departments);
      const text = await get.text();
      DepartmentsResponseSchema.parse(JSON.parse(text));
      const head = await running.client.request(departments, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe('application/json');
      expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
      expect(await head.text()).toBe('');
    });

    it('needs the token like the GET', async () => {
      const head = await running.client.request(departments, { method: 'HEAD', headers: { authorization: undefined } });
      expect(head.status).toBe(401);
      expect(head.headers.get('www-authenticate')).toBe('Bearer realm="api/leo"');
      expect(await head.text()).toBe('');
    });
  });

  describe('OPTIONS answers 204 with Allow, without a token', () => {
    it.each([
      [departments, 'GET, HEAD, OPTIONS'],
      [dutyPath('on'), 'POST, OPTIONS'],
    ])('%s', async (path, allow) => {
      const response = await running.client.request(path, { method: 'OPTIONS', headers: { authorization: undefined } });
      expect(response.status).toBe(204);
      expect(response.headers.get('allow')).toBe(allow);
      expect(await response.text()).toBe('');
    });
  });

  it('every one of these lands in the request log, and the duty route still works', async () => {
    const before = running.panel.store.requests.list().length;
    await running.client.request(dutyPath('on'), { method: 'OPTIONS' });
    const on = await running.client.post(dutyPath('on'), {
      chatId: TWO_DEPARTMENTS,
      departmentId: LSPD.id,
      rankId: LSPD.sergeant,
    });
    expect(on.status).toBe(200);
    expect(
      running.panel.store.requests
        .list()
        .slice(before)
        .map((entry) => [entry.method, entry.status]),
    ).toEqual([
      ['OPTIONS', 204],
      ['POST', 200],
    ]);
  });
});

describe.each(TRANSPORTS)('the tester controls (/__mock) as HTTP clients expect them, $name', (transport) => {
  let running: RunningPanel;
  beforeAll(async () => {
    running = await transport.start();
  });
  afterAll(() => running.stop());

  it('a missing and a wrong token: 401 with a challenge whose realm names the controls, and different bodies', async () => {
    const missing = await running.client.get('/__mock/requests', { headers: { authorization: undefined } });
    const wrong = await running.client.get('/__mock/requests', { headers: { authorization: 'Bearer nope' } });
    expect([missing.status, wrong.status]).toEqual([401, 401]);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="__mock"');
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="__mock", error="invalid_token"');
    expect(await bodyOf(missing, ControlErrorBodySchema)).toEqual({
      ok: false,
      error: 'unauthorized',
      message: 'no bearer token: send Authorization: Bearer <LEO_API_TOKEN>',
    });
    expect(await bodyOf(wrong, ControlErrorBodySchema)).toEqual({
      ok: false,
      error: 'unauthorized',
      message: "the bearer token is not this panel's LEO_API_TOKEN",
    });
  });

  it.each([
    ['GET', '/__mock/reset', 'POST'],
    ['POST', '/__mock/sessions', 'GET'],
    ['DELETE', '/__mock/requests', 'GET'],
    ['POST', '/__mock/faults', 'GET, DELETE'],
    ['PATCH', '/__mock/faults/latency', 'PUT, DELETE'],
    ['GET', `/__mock/users/${TWO_DEPARTMENTS}/roles`, 'PUT'],
  ])('a known control with a method it does not take, %s %s, answers 405 with Allow', async (method, path, allow) => {
    const response = await running.client.request(path, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expect(await bodyOf(response, ControlErrorBodySchema)).toEqual({
      ok: false,
      error: 'method_not_allowed',
      message: `${path} takes ${allow}, not ${method}`,
    });
  });

  it('an unknown control is still 404, without Allow', async () => {
    const response = await running.client.request('/__mock/nothing', { method: 'PUT' });
    expect(response.status).toBe(404);
    expect(response.headers.get('allow')).toBeNull();
  });

  it('sessions of a chatId that is not one answer as /api/leo does (404 malformed_chat_id); a real one 200', async () => {
    const bad = await running.client.get('/__mock/sessions?chatId=abc');
    expect(bad.status).toBe(404);
    expect(await bodyOf(bad, ControlErrorBodySchema)).toMatchObject({ error: 'malformed_chat_id' });
    const good = await running.client.get(`/__mock/sessions?chatId=${TWO_DEPARTMENTS}`);
    expect(good.status).toBe(200);
  });
});
