import { http } from 'msw';
import type { PanelControls } from '../../controls/panel-controls';
import {
  PutDepartmentBodySchema,
  PutDepartmentResponseSchema,
  RenameDepartmentBodySchema,
  RenameDepartmentResponseSchema,
} from '../../controls/schemas';
import { apiError, respond } from '../../http/responses';
import type { PanelContext } from '../../panel-context';
import type { RouteParams } from '../api/pipeline';
import { routePredicate } from '../route-predicate';
import { CONTROL_PREFIX, controlError, controlRoute, readControlBody } from './control-route';

/** The `:id` of a department route: a positive integer, or a 400 naming it. */
function departmentIdParam(params: RouteParams): { ok: true; id: number } | { ok: false; response: Response } {
  const id = Number(params.id);
  if (/^[0-9]{1,9}$/.test(String(params.id)) && id >= 1) return { ok: true, id };
  return { ok: false, response: controlError('id: a department id, a positive integer', 'id') };
}

const slugTaken = (slug: string) => controlError(`slug: another department has the slug ${slug}`, 'slug');

/**
 * PUT   /__mock/departments/:id   `{ slug, name, memberRoles, ranks, data? }`: a department an admin creates, or a
 *                                 new record for one (201 when added, 200 when replaced)
 * PATCH /__mock/departments/:id   `{ slug?, name? }`: what an admin editing a department does (same id, ranks and
 *                                 roles)
 * A slug another department has is refused.
 */
export function departmentHandlers(context: PanelContext, controls: PanelControls, origin: string) {
  const route = routePredicate(origin, `${CONTROL_PREFIX}/departments/:id`);
  return [
    http.put(
      route,
      controlRoute(context, async ({ request, params }) => {
        const id = departmentIdParam(params);
        if (!id.ok) return id.response;
        const body = await readControlBody(request, PutDepartmentBodySchema);
        if (!body.ok) return body.response;
        const put = controls.putDepartment(id.id, body.value);
        if (!put.ok) return slugTaken(body.value.slug);
        return respond(PutDepartmentResponseSchema, put, put.created ? 201 : 200);
      }),
    ),
    http.patch(
      route,
      controlRoute(context, async ({ request, params }) => {
        const id = departmentIdParam(params);
        if (!id.ok) return id.response;
        const body = await readControlBody(request, RenameDepartmentBodySchema);
        if (!body.ok) return body.response;
        const renamed = controls.renameDepartment(id.id, body.value);
        if (!renamed.ok && renamed.problem === 'not_found') {
          return apiError('department_not_found', `the panel has no department ${id.id}`);
        }
        if (!renamed.ok) return slugTaken(String(body.value.slug));
        const { slug, name } = renamed.department;
        return respond(RenameDepartmentResponseSchema, { ok: true, department: { id: id.id, slug, name } });
      }),
    ),
  ];
}
