import { http } from 'msw';
import type { PanelControls } from '../../controls/panel-controls';
import { RenameDepartmentBodySchema, RenameDepartmentResponseSchema } from '../../controls/schemas';
import { apiError, respond } from '../../http/responses';
import type { PanelContext } from '../../panel-context';
import { routePredicate } from '../route-predicate';
import { CONTROL_PREFIX, controlError, controlRoute, readControlBody } from './control-route';

/**
 * PATCH /__mock/departments/:id   `{ slug?, name? }`: what an admin editing a department does (same id, ranks and
 * roles); a slug another department has is refused
 */
export function departmentHandlers(context: PanelContext, controls: PanelControls, origin: string) {
  return [
    http.patch(
      routePredicate(origin, `${CONTROL_PREFIX}/departments/:id`),
      controlRoute(context, async ({ request, params }) => {
        const id = Number(params.id);
        if (!/^[0-9]{1,9}$/.test(String(params.id)) || id < 1) {
          return controlError('id: a department id, a positive integer', 'id');
        }
        const body = await readControlBody(request, RenameDepartmentBodySchema);
        if (!body.ok) return body.response;
        const renamed = controls.renameDepartment(id, body.value);
        if (!renamed.ok && renamed.problem === 'not_found') {
          return apiError('department_not_found', `the panel has no department ${id}`);
        }
        if (!renamed.ok) return controlError(`slug: another department has the slug ${body.value.slug}`, 'slug');
        const { slug, name } = renamed.department;
        return respond(RenameDepartmentResponseSchema, { ok: true, department: { id, slug, name } });
      }),
    ),
  ];
}
