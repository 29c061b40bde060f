import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DashboardSnapshotSchema } from '../../mock-panel/dashboard/snapshot';
import { dutyPath } from '../../shared/contract';
import { LSPD, NO_DEPARTMENTS, TWO_DEPARTMENTS } from './support/demo-users';
import { type RunningPanel, TOKEN, TRANSPORTS } from './support/panel-transports';

describe.each(TRANSPORTS)('the dashboard ($name)', (transport) => {
  let running: RunningPanel;
  beforeAll(async () => {
    running = await transport.start({ rateLimit: { limit: 10, windowMs: 60_000 } });
  });
  afterEach(() => running.panel.controls.reset());
  afterAll(() => running.stop());

  const snapshot = async () =>
    DashboardSnapshotSchema.parse(await (await running.client.get('/__mock/dashboard')).json());

  it('serves the page and its assets without a token, holding none, under a strict content policy', async () => {
    for (const [path, type] of [
      ['/', 'text/html'],
      ['/dashboard.js', 'text/javascript'],
      ['/dashboard.css', 'text/css'],
    ] as const) {
      const response = await running.client.get(path, { headers: { authorization: '' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain(type);
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await response.text()).not.toContain(TOKEN);
    }
  });

  it('answers the snapshot only with the token', async () => {
    const response = await running.client.get('/__mock/dashboard', { headers: { authorization: 'Bearer wrong' } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ ok: false, error: 'unauthorized' });
  });

  it('shows users, the roster, sessions newest first, the request log and the open rate-limit window', async () => {
    const on = { chatId: TWO_DEPARTMENTS, departmentId: LSPD.id, rankId: LSPD.sergeant, serverId: 4, playerName: 'A' };
    expect((await running.client.post(dutyPath('on'), on)).status).toBe(200);
    expect((await running.client.post(dutyPath('off'), { chatId: TWO_DEPARTMENTS })).status).toBe(200);
    expect((await running.client.post(dutyPath('on'), { ...on, departmentId: 2, rankId: 4 })).status).toBe(200);

    const view = await snapshot();
    expect(view.users.find((user) => user.chatId === TWO_DEPARTMENTS)?.departments.map((d) => d.slug)).toEqual([
      'lspd',
      'bcso',
    ]);
    expect(view.users.find((user) => user.chatId === NO_DEPARTMENTS)?.departments).toEqual([]);
    expect(view.roster).toEqual([
      expect.objectContaining({
        name: 'Alex Mercer',
        departmentName: "Blaine County Sheriff's Office",
        rankName: 'Deputy',
      }),
    ]);
    expect(view.sessions.map((s) => [s.departmentName, s.rankName, s.endedBy])).toEqual([
      ["Blaine County Sheriff's Office", 'Deputy', null],
      ['Los Santos Police Department', 'Sergeant', 'off'],
    ]);
    expect(view.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /api/leo/duty/on 200',
      'POST /api/leo/duty/off 200',
      'POST /api/leo/duty/on 200',
    ]);
    // Controls are not counted: three /api/leo requests of ten in the window.
    expect(view.rateLimit).toMatchObject({ limit: 10, windowMs: 60_000, windows: [{ used: 3, remaining: 7 }] });
    expect(view.faults).toMatchObject({ latencyMs: 0, errors: null });
  });
  it('counts every request and every 429 since the start, and starts again at a reset', async () => {
    for (let i = 0; i < 13; i++) await running.client.get(`/api/leo/user/${TWO_DEPARTMENTS}/departments`);
    expect((await snapshot()).rateLimit).toMatchObject({ requests: 13, tooManyRequests: 3 });
    await running.panel.controls.reset();
    expect((await snapshot()).rateLimit).toMatchObject({ requests: 0, tooManyRequests: 0 });
  });
});
