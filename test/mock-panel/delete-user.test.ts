// The tester control that deletes a panel user, as a panel admin deleting or banning the account does: over real
// HTTP, the user's departments and duty calls answer the panel's own 404 `user_not_found` afterwards.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ControlErrorBodySchema, DeleteUserResponseSchema, SessionsResponseSchema } from '../../mock-panel';
import { DutyResponseSchema, departmentsPath, dutyPath, ErrorBodySchema } from '../../shared/contract';
import { LSPD, TWO_DEPARTMENTS, UNKNOWN_USER } from './support/demo-users';
import { bodyOf, overHttp, type RunningPanel } from './support/panel-transports';

describe('deleting a user, over real HTTP', () => {
  let running: RunningPanel;
  beforeAll(async () => {
    running = await overHttp.start();
  });
  afterEach(() => running.panel.controls.reset());
  afterAll(() => running.stop());

  const onDuty = () =>
    running.client.post(dutyPath('on'), {
      chatId: TWO_DEPARTMENTS,
      departmentId: LSPD.id,
      rankId: LSPD.sergeant,
      serverId: 7,
      playerName: 'Alex Mercer',
    });

  it('answers the deleted user, ends their open duty session, and the panel no longer knows them', async () => {
    expect((await bodyOf(await onDuty(), DutyResponseSchema)).duty.onDuty).toBe(true);

    const deleted = await running.client.delete(`/__mock/users/${TWO_DEPARTMENTS}`);
    expect(deleted.status).toBe(200);
    expect(await bodyOf(deleted, DeleteUserResponseSchema)).toEqual({
      ok: true,
      user: { chatId: TWO_DEPARTMENTS, name: 'Alex Mercer' },
      endedSession: expect.objectContaining({ departmentId: LSPD.id, endedBy: 'deleted' }),
    });

    const departments = await running.client.get(departmentsPath(TWO_DEPARTMENTS));
    expect(departments.status).toBe(404);
    expect(await bodyOf(departments, ErrorBodySchema)).toMatchObject({ ok: false, error: 'user_not_found' });
    const off = await running.client.post(dutyPath('off'), { chatId: TWO_DEPARTMENTS, departmentId: LSPD.id });
    expect(off.status).toBe(404);
    expect(await bodyOf(off, ErrorBodySchema)).toMatchObject({ ok: false, error: 'user_not_found' });
    expect((await onDuty()).status).toBe(404);

    const sessions = await running.client.get(`/__mock/sessions?chatId=${TWO_DEPARTMENTS}`);
    expect((await bodyOf(sessions, SessionsResponseSchema)).sessions).toEqual([
      expect.objectContaining({ departmentId: LSPD.id, endedBy: 'deleted', endedAt: expect.any(String) }),
    ]);
  });

  it('answers a user off duty with no session, and a second delete with 404', async () => {
    const deleted = await running.client.delete(`/__mock/users/${TWO_DEPARTMENTS}`);
    expect(await bodyOf(deleted, DeleteUserResponseSchema)).toMatchObject({ endedSession: null });
    const again = await running.client.delete(`/__mock/users/${TWO_DEPARTMENTS}`);
    expect(again.status).toBe(404);
    expect(await bodyOf(again, ErrorBodySchema)).toMatchObject({ error: 'user_not_found' });
    expect((await running.client.delete(`/__mock/users/${UNKNOWN_USER}`)).status).toBe(404);
  });

  it('refuses a malformed chat id as /api/leo does: 404 malformed_chat_id', async () => {
    const response = await running.client.delete('/__mock/users/alex');
    expect(response.status).toBe(404);
    expect(await bodyOf(response, ControlErrorBodySchema)).toEqual({
      ok: false,
      error: 'malformed_chat_id',
      message: 'chatId must be 18 to 19 ASCII digits',
    });
  });

  it('is undone by a reset: the user is back with their roles', async () => {
    await running.client.delete(`/__mock/users/${TWO_DEPARTMENTS}`);
    await running.client.post('/__mock/reset', {});
    const departments = await running.client.get(departmentsPath(TWO_DEPARTMENTS));
    expect(departments.status).toBe(200);
  });

  it('needs the token', async () => {
    const response = await running.client.delete(`/__mock/users/${TWO_DEPARTMENTS}`, {
      headers: { authorization: 'Bearer nope' },
    });
    expect(response.status).toBe(401);
    expect(running.panel.controls.sessions()).toEqual([]);
    expect((await running.client.get(departmentsPath(TWO_DEPARTMENTS))).status).toBe(200);
  });
});
