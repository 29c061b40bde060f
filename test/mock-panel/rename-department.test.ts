// The tester control that renames a department, as a panel admin editing its slug or name does (same id, ranks and
// roles): over real HTTP, every member's departments answer with the new slug and name afterwards.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ControlErrorBodySchema, RenameDepartmentResponseSchema } from '../../mock-panel';
import { DepartmentsResponseSchema, departmentsPath, ErrorBodySchema } from '../../shared/contract';
import { BCSO, LSPD, TWO_DEPARTMENTS } from './support/demo-users';
import { bodyOf, overHttp, type RunningPanel } from './support/panel-transports';

describe('renaming a department, over real HTTP', () => {
  let running: RunningPanel;
  beforeAll(async () => {
    running = await overHttp.start();
  });
  afterEach(() => running.panel.controls.reset());
  afterAll(() => running.stop());

  const departmentsOfAlex = async () =>
    (await bodyOf(await running.client.get(departmentsPath(TWO_DEPARTMENTS)), DepartmentsResponseSchema)).departments;

  it('gives members the new slug and name with the same id and rank', async () => {
    expect((await departmentsOfAlex())[0]).toMatchObject({ id: LSPD.id, slug: 'lspd' });
    const response = await running.client.request(`/__mock/departments/${LSPD.id}`, {
      method: 'patch',
      json: { slug: 'lapd', name: 'Los Angeles Police Department' },
    });
    expect(response.status).toBe(200);
    expect(await bodyOf(response, RenameDepartmentResponseSchema)).toEqual({
      ok: true,
      department: { id: LSPD.id, slug: 'lapd', name: 'Los Angeles Police Department' },
    });
    expect((await departmentsOfAlex()).map(({ id, slug, name, rank }) => [id, slug, name, rank.id])).toEqual([
      [LSPD.id, 'lapd', 'Los Angeles Police Department', LSPD.sergeant],
      [BCSO.id, 'bcso', "Blaine County Sheriff's Office", BCSO.deputy],
    ]);
  });

  it('changes only what it is given, and a reset puts the seed back', async () => {
    await running.client.request(`/__mock/departments/${LSPD.id}`, { method: 'patch', json: { name: 'LSPD' } });
    expect((await departmentsOfAlex())[0]).toMatchObject({ slug: 'lspd', name: 'LSPD' });
    await running.client.post('/__mock/reset', {});
    expect((await departmentsOfAlex())[0]).toMatchObject({ slug: 'lspd', name: 'Los Santos Police Department' });
  });

  it("refuses another department's slug, a bad slug, an empty body and an unknown department", async () => {
    const patch = (id: number | string, json: unknown) =>
      running.client.request(`/__mock/departments/${id}`, { method: 'patch', json });
    const taken = await patch(LSPD.id, { slug: 'bcso' });
    expect(taken.status).toBe(400);
    expect(await bodyOf(taken, ControlErrorBodySchema)).toMatchObject({ error: 'invalid_control', field: 'slug' });
    const bad = await patch(LSPD.id, { slug: 'L.A.P.D' });
    expect(await bodyOf(bad, ControlErrorBodySchema)).toMatchObject({ field: 'slug' });
    expect((await patch(LSPD.id, {})).status).toBe(400);
    expect((await patch('one', { slug: 'lapd' })).status).toBe(400);
    const unknown = await patch(99, { slug: 'lapd' });
    expect(unknown.status).toBe(404);
    expect(await bodyOf(unknown, ErrorBodySchema)).toMatchObject({ error: 'department_not_found' });
    expect((await departmentsOfAlex())[0]).toMatchObject({ slug: 'lspd' });
  });
});
