import { TimeoutError } from 'ky';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ControlErrorBodySchema,
  FaultsResponseSchema,
  OkResponseSchema,
  RequestLogResponseSchema,
  RolesResponseSchema,
  SessionsResponseSchema,
} from '../../mock-panel';
import {
  DepartmentsResponseSchema,
  DutyResponseSchema,
  departmentsPath,
  dutyPath,
  ErrorBodySchema,
} from '../../shared/contract';
import { LSPD, LSPD_ROLES, OTHER_GUILD, OTHER_GUILD_ONLY, TWO_DEPARTMENTS, UNKNOWN_USER } from './support/demo-users';
import { bodyOf, inProcess, type RunningPanel, TRANSPORTS } from './support/panel-transports';

async function departmentSlugs(running: RunningPanel, chatId: string) {
  const body = await bodyOf(await running.client.get(departmentsPath(chatId)), DepartmentsResponseSchema);
  return body.departments.map((department) => `${department.slug}:${department.rank.name}`);
}

async function requestLog(running: RunningPanel) {
  return (await bodyOf(await running.client.get('/__mock/requests'), RequestLogResponseSchema)).requests;
}

describe('tester controls, in-process', () => {
  let running: RunningPanel;
  beforeAll(async () => {
    running = await inProcess.start();
  });
  afterEach(() => running.panel.controls.reset());
  afterAll(() => running.stop());

  describe('changing roles, as /syncme does', () => {
    it("gives a user the departments of their new roles in the panel's guild", async () => {
      expect(await departmentSlugs(running, OTHER_GUILD_ONLY)).toEqual([]);
      const response = await running.client.put(`/__mock/users/${OTHER_GUILD_ONLY}/roles`, {
        roles: [LSPD_ROLES.member, LSPD_ROLES.lieutenant],
      });
      expect((await bodyOf(response, RolesResponseSchema)).departments.map((department) => department.id)).toEqual([
        LSPD.id,
      ]);
      expect(await departmentSlugs(running, OTHER_GUILD_ONLY)).toEqual(['lspd:Lieutenant']);
    });

    it('grants nothing for roles in another guild', async () => {
      await running.client.put(`/__mock/users/${TWO_DEPARTMENTS}/roles`, { roles: [], guildId: running.panel.guildId });
      await running.client.put(`/__mock/users/${TWO_DEPARTMENTS}/roles`, {
        roles: [LSPD_ROLES.member],
        guildId: OTHER_GUILD,
      });
      expect(await departmentSlugs(running, TWO_DEPARTMENTS)).toEqual([]);
    });

    it('answers 404 for an unknown user and 400 naming the bad field', async () => {
      const unknown = await running.client.put(`/__mock/users/${UNKNOWN_USER}/roles`, { roles: [] });
      expect(unknown.status).toBe(404);
      expect((await bodyOf(unknown, ErrorBodySchema)).error).toBe('user_not_found');
      const bad = await running.client.put(`/__mock/users/${TWO_DEPARTMENTS}/roles`, { roles: ['admin'] });
      expect(bad.status).toBe(400);
      expect(await bodyOf(bad, ControlErrorBodySchema)).toMatchObject({ error: 'invalid_control', field: 'roles.0' });
    });
  });

  it('need the token', async () => {
    const response = await running.client.post('/__mock/reset', {}, { headers: { authorization: 'Bearer nope' } });
    expect(response.status).toBe(401);
  });

  it('answer 404 for an unknown control', async () => {
    expect((await running.client.get('/__mock/nothing')).status).toBe(404);
  });

  it('inject error statuses at a seeded rate: the same seed fails the same requests', async () => {
    const statuses = async () => {
      await running.client.put('/__mock/faults/errors', { error: 'service_unavailable', rate: 0.5, seed: 42 });
      const seen: number[] = [];
      for (let sent = 0; sent < 16; sent++)
        seen.push((await running.client.get(departmentsPath(TWO_DEPARTMENTS))).status);
      return seen;
    };
    const first = await statuses();
    expect(new Set(first)).toEqual(new Set([200, 503]));
    expect(await statuses()).toEqual(first);
  });

  it('inject a 429 that says when to come back, as the limiter’s own does: Retry-After and the window headers', async () => {
    await running.client.put('/__mock/faults/errors', { error: 'rate_limited' });
    const response = await running.client.get(departmentsPath(TWO_DEPARTMENTS));
    expect(response.status).toBe(429);
    expect((await bodyOf(response, ErrorBodySchema)).error).toBe('rate_limited');
    expect(response.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(Number(response.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(response.headers.get('retry-after')).toBe(response.headers.get('ratelimit-reset'));
  });

  it('inject other errors without Retry-After', async () => {
    await running.client.put('/__mock/faults/errors', { error: 'service_unavailable' });
    const response = await running.client.get(departmentsPath(TWO_DEPARTMENTS));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBeNull();
  });

  describe('a malformed chat id', () => {
    // What /api/leo answers for a chat id in its path that is not one (shared/contract/README.md).
    const contractAnswer = async () => {
      const response = await running.client.get(departmentsPath('alex'));
      return { status: response.status, body: await response.json() };
    };

    it.each([
      ['PUT', '/__mock/users/alex', { name: 'Alex' }],
      ['PUT', '/__mock/users/alex/roles', { roles: [] }],
      ['DELETE', '/__mock/users/alex', undefined],
      ['GET', '/__mock/sessions?chatId=alex', undefined],
    ])('gets the same answer from %s %s as from /api/leo: 404 malformed_chat_id', async (method, path, json) => {
      const response = await running.client.request(path, { method, ...(json === undefined ? {} : { json }) });
      const answer = { status: response.status, body: await response.json() };
      expect(answer).toEqual(await contractAnswer());
      expect(answer).toEqual({
        status: 404,
        body: { ok: false, error: 'malformed_chat_id', message: 'chatId must be 18 to 19 ASCII digits' },
      });
    });

    it('changes nothing: the users and their roles are as they were', async () => {
      await running.client.put('/__mock/users/alex', { name: 'Alex' });
      await running.client.put('/__mock/users/alex/roles', { roles: [] });
      await running.client.delete('/__mock/users/alex');
      expect(running.panel.store.users.all()).toHaveLength(5);
      expect(await departmentSlugs(running, TWO_DEPARTMENTS)).toEqual(['lspd:Sergeant', 'bcso:Deputy']);
    });
  });

  it('inject internal_error as a thrown exception: a 500 without a stack trace', async () => {
    await running.client.put('/__mock/faults/errors', { error: 'internal_error' });
    const response = await running.client.get(departmentsPath(TWO_DEPARTMENTS));
    expect(response.status).toBe(500);
    expect(await bodyOf(response, ErrorBodySchema)).toEqual({
      ok: false,
      error: 'internal_error',
      message: 'the panel failed unexpectedly',
    });
  });

  describe('malformed bodies', () => {
    it('invalid_json: the body is cut short and does not parse', async () => {
      await running.client.put('/__mock/faults/malformed', { mode: 'invalid_json' });
      const response = await running.client.get(departmentsPath(TWO_DEPARTMENTS));
      expect(response.status).toBe(200);
      await expect(response.json()).rejects.toThrow(SyntaxError);
    });

    it('wrong_shape: ok is true but the endpoint fields are missing', async () => {
      await running.client.put('/__mock/faults/malformed', { mode: 'wrong_shape' });
      const body = await (await running.client.post(dutyPath('off'), { chatId: TWO_DEPARTMENTS })).json();
      expect(body).toMatchObject({ ok: true });
      expect(DutyResponseSchema.safeParse(body).success).toBe(false);
    });

    it('html: a proxy error page', async () => {
      await running.client.put('/__mock/faults/malformed', { mode: 'html' });
      const response = await running.client.get(departmentsPath(TWO_DEPARTMENTS));
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toMatch(/^<!DOCTYPE html>/);
    });
  });

  it('list and clear faults, one kind or all', async () => {
    await running.client.put('/__mock/faults/latency', { ms: 5 });
    await running.client.put('/__mock/faults/outage', { mode: 'hang', rate: 0.1, seed: 3 });
    const listed = await bodyOf(await running.client.get('/__mock/faults'), FaultsResponseSchema);
    expect(listed.faults).toEqual({
      latencyMs: 5,
      errors: null,
      outage: { mode: 'hang', rate: 0.1, seed: 3 },
      malformed: null,
    });
    const afterOne = await bodyOf(await running.client.delete('/__mock/faults/outage'), FaultsResponseSchema);
    expect(afterOne.faults).toMatchObject({ latencyMs: 5, outage: null });
    const afterAll = await bodyOf(await running.client.delete('/__mock/faults'), FaultsResponseSchema);
    expect(afterAll.faults.latencyMs).toBe(0);
  });

  it('reset puts roles, duty, sessions, the request log and faults back to the seed', async () => {
    await running.client.put(`/__mock/users/${TWO_DEPARTMENTS}/roles`, { roles: [] });
    await running.client.post(dutyPath('on'), { chatId: OTHER_GUILD_ONLY, departmentId: 1, rankId: 1 });
    running.panel.controls.setRoles(OTHER_GUILD_ONLY, [LSPD_ROLES.member]);
    await running.client.post(dutyPath('on'), { chatId: OTHER_GUILD_ONLY, departmentId: LSPD.id, rankId: 1 });
    await running.client.put('/__mock/faults/latency', { ms: 1 });

    expect(await bodyOf(await running.client.post('/__mock/reset', {}), OkResponseSchema)).toEqual({ ok: true });

    const sessions = await bodyOf(await running.client.get('/__mock/sessions'), SessionsResponseSchema);
    expect(sessions.sessions).toEqual([]);
    expect(await requestLog(running)).toEqual([]);
    expect(running.panel.controls.faults().latencyMs).toBe(0);
    expect(await departmentSlugs(running, TWO_DEPARTMENTS)).toEqual(['lspd:Sergeant', 'bcso:Deputy']);
    expect(await departmentSlugs(running, OTHER_GUILD_ONLY)).toEqual([]);
  });
});

describe.each(TRANSPORTS)('faults seen by a client, $name', (transport) => {
  let running: RunningPanel;
  beforeAll(async () => {
    running = await transport.start();
  });
  afterEach(() => running.panel.controls.reset());
  afterAll(() => running.stop());

  const askDepartments = (timeout?: number) =>
    running.client.get(departmentsPath(TWO_DEPARTMENTS), timeout === undefined ? {} : { timeout });

  it('latency delays every answer', async () => {
    await running.client.put('/__mock/faults/latency', { ms: 200 });
    const startedAt = performance.now();
    expect((await askDepartments()).status).toBe(200);
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(190);
  });

  it('latency beyond the client timeout is a timeout', async () => {
    await running.client.put('/__mock/faults/latency', { ms: 2_000 });
    await expect(askDepartments(100)).rejects.toBeInstanceOf(TimeoutError);
  });

  it('an outage with reset fails the request at the network level', async () => {
    await running.client.put('/__mock/faults/outage', { mode: 'reset' });
    await expect(askDepartments()).rejects.toBeInstanceOf(TypeError);
    expect(await requestLog(running)).toContainEqual(expect.objectContaining({ status: null, faults: ['reset'] }));
  });

  it('an outage with hang never answers, until the client gives up', async () => {
    await running.client.put('/__mock/faults/outage', { mode: 'hang' });
    await expect(askDepartments(150)).rejects.toBeInstanceOf(TimeoutError);
  });

  it('an outage with proxy_404 answers nginx’s HTML 404 page in the panel’s place, the limiter not counting it', async () => {
    await running.client.put('/__mock/faults/outage', { mode: 'proxy_404', rate: 1 });
    const response = await askDepartments();
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(response.headers.get('server')).toBe('nginx');
    expect(response.headers.get('ratelimit-remaining')).toBeNull();
    expect(await response.text()).toContain('<title>404 Not Found</title>');
    const duty = await running.client.post(dutyPath('off'), { json: { chatId: TWO_DEPARTMENTS } });
    expect(duty.status).toBe(404);
    expect(await duty.text()).toContain('<center>nginx</center>');
    expect(await requestLog(running)).toContainEqual(expect.objectContaining({ status: 404, faults: ['proxy_404'] }));

    const faults = await bodyOf(await running.client.get('/__mock/faults'), FaultsResponseSchema);
    expect(faults.faults.outage).toEqual({ mode: 'proxy_404', rate: 1, seed: 1 });
    await running.client.delete('/__mock/faults/outage');
    expect((await askDepartments()).status).toBe(200);
  });

  it('ending a hang outage lets the hanging request go and the next one through', async () => {
    await running.client.put('/__mock/faults/outage', { mode: 'hang' });
    const hanging = expect(askDepartments()).rejects.toBeInstanceOf(TypeError);
    await vi.waitFor(() => expect(running.panel.controls.hangingRequests()).toBe(1));
    const faults = await bodyOf(await running.client.delete('/__mock/faults/outage'), FaultsResponseSchema);
    expect(faults.faults.outage).toBeNull();
    await hanging;
    expect(running.panel.controls.hangingRequests()).toBe(0);
    expect((await askDepartments()).status).toBe(200);
  });

  it('the request log records method, path, status, latency and the client address', async () => {
    await running.client.get(departmentsPath(TWO_DEPARTMENTS), {
      // A client cannot choose its address: forwarding headers are ignored.
      headers: { 'x-forwarded-for': '203.0.113.9', forwarded: 'for=203.0.113.9', 'x-real-ip': '203.0.113.9' },
    });
    expect(await requestLog(running)).toContainEqual({
      time: expect.any(String),
      method: 'GET',
      path: departmentsPath(TWO_DEPARTMENTS),
      status: 200,
      latencyMs: expect.any(Number),
      clientIp: '127.0.0.1',
      faults: [],
    });
  });
});
