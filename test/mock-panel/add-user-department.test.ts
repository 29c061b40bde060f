// The tester controls that add a user and a department while the panel runs, as a panel admin does, over both
// transports: the panel then answers /api/leo for them as for the seed's own.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ControlErrorBodySchema,
  PutDepartmentResponseSchema,
  PutUserResponseSchema,
  SessionsResponseSchema,
} from '../../mock-panel';
import {
  DepartmentsReadSchema,
  DepartmentsResponseSchema,
  DutyResponseSchema,
  departmentsPath,
  dutyPath,
  ErrorBodySchema,
} from '../../shared/contract';
import { LSPD, LSPD_ROLES, OTHER_GUILD, TWO_DEPARTMENTS, UNKNOWN_USER } from './support/demo-users';
import { bodyOf, type RunningPanel, TRANSPORTS } from './support/panel-transports';

const NEW_USER = '701234567890123456';
const DOA = {
  id: 9,
  slug: 'doa',
  name: 'Department of Aviation',
  memberRoles: ['1300000000000000001'],
  ranks: [
    { id: 91, name: 'Pilot', roleId: '1300000000000000011' },
    { id: 92, name: 'Chief Pilot', roleId: '1300000000000000012' },
  ],
};

describe.each(TRANSPORTS)('adding users and departments, $name', (transport) => {
  let running: RunningPanel;
  beforeAll(async () => {
    running = await transport.start();
  });
  afterEach(() => running.panel.controls.reset());
  afterAll(() => running.stop());

  const departmentsOf = async (chatId: string) => running.client.get(departmentsPath(chatId));
  const putUser = (chatId: string, json: unknown) => running.client.put(`/__mock/users/${chatId}`, json);
  const putDepartment = (id: number | string, json: unknown) => running.client.put(`/__mock/departments/${id}`, json);

  it('adds a user with roles in the panel’s guild: 201, and /api/leo knows them from then on', async () => {
    expect((await departmentsOf(NEW_USER)).status).toBe(404);
    const response = await putUser(NEW_USER, { name: 'Morgan Blake', roles: [LSPD_ROLES.member] });
    expect(response.status).toBe(201);
    expect(await bodyOf(response, PutUserResponseSchema)).toMatchObject({
      ok: true,
      created: true,
      user: { chatId: NEW_USER, name: 'Morgan Blake' },
      roles: { [running.panel.guildId]: [LSPD_ROLES.member] },
      departments: [{ id: LSPD.id, slug: 'lspd', rank: { id: LSPD.officer, name: 'Officer' } }],
    });
    const answer = await bodyOf(await departmentsOf(NEW_USER), DepartmentsResponseSchema);
    expect(answer.user).toEqual({ chatId: NEW_USER, name: 'Morgan Blake' });
    expect(answer.departments.map((department) => department.slug)).toEqual(['lspd']);
  });

  it('adds a user without roles, or with roles of another guild, who has no departments', async () => {
    expect((await putUser(NEW_USER, { name: 'Morgan Blake' })).status).toBe(201);
    expect((await bodyOf(await departmentsOf(NEW_USER), DepartmentsResponseSchema)).departments).toEqual([]);
    await putUser(NEW_USER, { name: 'Morgan Blake', roles: [LSPD_ROLES.member], guildId: OTHER_GUILD });
    expect((await bodyOf(await departmentsOf(NEW_USER), DepartmentsResponseSchema)).departments).toEqual([]);
  });

  it('replaces a user it knows: 200, the new name and roles, created false', async () => {
    const response = await putUser(TWO_DEPARTMENTS, { name: 'Alex M.', roles: [] });
    expect(response.status).toBe(200);
    expect(await bodyOf(response, PutUserResponseSchema)).toMatchObject({ created: false, departments: [] });
    const answer = await bodyOf(await departmentsOf(TWO_DEPARTMENTS), DepartmentsResponseSchema);
    expect(answer).toMatchObject({ user: { name: 'Alex M.' }, departments: [] });
  });

  it('brings back a deleted user', async () => {
    await running.client.delete(`/__mock/users/${TWO_DEPARTMENTS}`);
    expect((await departmentsOf(TWO_DEPARTMENTS)).status).toBe(404);
    expect((await putUser(TWO_DEPARTMENTS, { name: 'Alex Mercer' })).status).toBe(201);
    expect((await departmentsOf(TWO_DEPARTMENTS)).status).toBe(200);
  });

  it('refuses a user without a name, or with a role that is no id, naming the field, and adds nobody', async () => {
    const nameless = await putUser(NEW_USER, { roles: [] });
    expect(nameless.status).toBe(400);
    expect(await bodyOf(nameless, ControlErrorBodySchema)).toMatchObject({ error: 'invalid_control', field: 'name' });
    const badRole = await putUser(NEW_USER, { name: 'Morgan Blake', roles: ['officer'] });
    expect(await bodyOf(badRole, ControlErrorBodySchema)).toMatchObject({ field: 'roles.0' });
    expect((await departmentsOf(NEW_USER)).status).toBe(404);
  });

  it('adds a department: 201, its members get it with their rank, and they go on duty in it', async () => {
    const response = await putDepartment(DOA.id, DOA);
    expect(response.status).toBe(201);
    expect(await bodyOf(response, PutDepartmentResponseSchema)).toEqual({
      ok: true,
      created: true,
      department: { id: DOA.id, slug: 'doa', name: 'Department of Aviation' },
    });
    await putUser(NEW_USER, { name: 'Morgan Blake', roles: ['1300000000000000001', '1300000000000000012'] });
    const answer = await (await departmentsOf(NEW_USER)).json();
    const [doa] = DepartmentsResponseSchema.parse(answer).departments;
    expect(doa).toEqual({
      id: DOA.id,
      slug: 'doa',
      name: 'Department of Aviation',
      rank: { id: 92, name: 'Chief Pilot' },
    });
    // Without data, as the contract allows: the bridge reads {}.
    expect(DepartmentsReadSchema.parse(answer).departments[0]?.data).toEqual({});

    const on = await running.client.post(dutyPath('on'), { chatId: NEW_USER, departmentId: DOA.id, rankId: 92 });
    expect(await bodyOf(on, DutyResponseSchema)).toMatchObject({ ok: true, changed: true });
    const sessions = await bodyOf(
      await running.client.get(`/__mock/sessions?chatId=${NEW_USER}`),
      SessionsResponseSchema,
    );
    expect(sessions.sessions).toMatchObject([{ departmentId: DOA.id, rankId: 92, endedAt: null }]);
  });

  it('sends a department’s data when it is given', async () => {
    const data = {
      callsignPrefix: 'AIR',
      vehicles: [{ model: 'polmav', label: 'Maverick' }],
      uniforms: [],
      equipment: [],
    };
    await putDepartment(DOA.id, { ...DOA, data });
    await putUser(NEW_USER, { name: 'Morgan Blake', roles: ['1300000000000000001'] });
    const answer = await bodyOf(await departmentsOf(NEW_USER), DepartmentsResponseSchema);
    expect(answer.departments[0]?.data).toEqual(data);
  });

  it('replaces a department it has: 200, same id, members see the new ranks', async () => {
    const response = await putDepartment(LSPD.id, {
      ...DOA,
      slug: 'lspd',
      name: 'LSPD',
      memberRoles: [LSPD_ROLES.member],
      ranks: [{ id: 1, name: 'Cadet', roleId: '1300000000000000021' }],
    });
    expect(response.status).toBe(200);
    expect(await bodyOf(response, PutDepartmentResponseSchema)).toMatchObject({ created: false });
    const answer = await bodyOf(await departmentsOf(TWO_DEPARTMENTS), DepartmentsResponseSchema);
    expect(answer.departments[0]).toMatchObject({ id: LSPD.id, name: 'LSPD', rank: { id: 1, name: 'Cadet' } });
  });

  it('refuses another department’s slug, no ranks, a rank listed twice and an id that is none; changes nothing', async () => {
    const cases: Array<[number | string, unknown, string]> = [
      [DOA.id, { ...DOA, slug: 'lspd' }, 'slug'],
      [DOA.id, { ...DOA, ranks: [] }, 'ranks'],
      [DOA.id, { ...DOA, ranks: [DOA.ranks[0], { ...DOA.ranks[1], id: 91 }] }, 'ranks'],
      [DOA.id, { ...DOA, memberRoles: [] }, 'memberRoles'],
      ['aviation', DOA, 'id'],
    ];
    for (const [id, json, field] of cases) {
      const response = await putDepartment(id, json);
      expect(response.status).toBe(400);
      expect(await bodyOf(response, ControlErrorBodySchema)).toMatchObject({ error: 'invalid_control', field });
    }
    const duplicate = await putDepartment(DOA.id, { ...DOA, ranks: [DOA.ranks[0], { ...DOA.ranks[1], id: 91 }] });
    expect((await bodyOf(duplicate, ControlErrorBodySchema)).message).toBe('ranks: duplicate rank id 91');
    expect(running.panel.store.users.department(DOA.id)).toBeUndefined();
    expect(running.panel.store.users.department(LSPD.id)?.slug).toBe('lspd');
  });

  it('is undone by a reset: the added user and department are gone', async () => {
    await putDepartment(DOA.id, DOA);
    await putUser(NEW_USER, { name: 'Morgan Blake', roles: ['1300000000000000001'] });
    await running.client.post('/__mock/reset', {});
    expect(await bodyOf(await departmentsOf(NEW_USER), ErrorBodySchema)).toMatchObject({ error: 'user_not_found' });
    expect(running.panel.store.users.department(DOA.id)).toBeUndefined();
  });

  it('need the token', async () => {
    const response = await putUser(UNKNOWN_USER, { name: 'x' });
    expect(response.status).toBe(201);
    const refused = await running.client.put(
      `/__mock/users/${NEW_USER}`,
      { name: 'x' },
      {
        headers: { authorization: 'Bearer nope' },
      },
    );
    expect(refused.status).toBe(401);
    const refusedDepartment = await running.client.put(`/__mock/departments/${DOA.id}`, DOA, {
      headers: { authorization: 'Bearer nope' },
    });
    expect(refusedDepartment.status).toBe(401);
    expect((await departmentsOf(NEW_USER)).status).toBe(404);
  });
});
