import { http } from 'msw';
import type { PanelControls } from '../../controls/panel-controls';
import { OkResponseSchema } from '../../controls/schemas';
import { apiError, respond } from '../../http/responses';
import type { PanelContext } from '../../panel-context';
import { routePredicate } from '../route-predicate';
import { CONTROL_PREFIX, controlRoute } from './control-route';
import { dashboardHandlers } from './dashboard';
import { departmentHandlers } from './departments';
import { faultHandlers } from './faults';
import { recordHandlers } from './records';
import { userHandlers } from './users';

/** The tester controls; POST /__mock/reset puts everything back to the seed. */
export function controlHandlers(context: PanelContext, controls: PanelControls, origin: string) {
  return [
    ...userHandlers(context, controls, origin),
    ...departmentHandlers(context, controls, origin),
    ...faultHandlers(context, controls, origin),
    ...recordHandlers(context, controls, origin),
    ...dashboardHandlers(context, origin),
    http.post(
      routePredicate(origin, `${CONTROL_PREFIX}/reset`),
      controlRoute(context, async () => {
        controls.reset();
        return respond(OkResponseSchema, { ok: true });
      }),
    ),
    http.all(
      routePredicate(origin, `${CONTROL_PREFIX}/*`),
      controlRoute(context, async ({ request }) =>
        apiError('not_found', `no control ${request.method} ${new URL(request.url).pathname}`),
      ),
    ),
  ];
}
