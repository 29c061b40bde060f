import { type HttpHandler, http } from 'msw';
import type { PanelControls } from '../../controls/panel-controls';
import { OkResponseSchema } from '../../controls/schemas';
import { apiError, methodNotAllowedAnswer, respond, responseOf } from '../../http/responses';
import type { PanelContext } from '../../panel-context';
import { routePredicate } from '../route-predicate';
import { CONTROL_PREFIX, controlRoute } from './control-route';
import { dashboardHandlers } from './dashboard';
import { departmentHandlers } from './departments';
import { faultHandlers } from './faults';
import { recordHandlers } from './records';
import { userHandlers } from './users';

/** The methods the controls take at this URL, in the order they are declared (empty for an unknown control). */
function allowedAt(routes: readonly HttpHandler[], request: Request): string[] {
  const methods = routes
    .filter((route) => typeof route.info.path === 'function' && route.info.path({ request, cookies: {} }))
    .map((route) => String(route.info.method));
  return [...new Set(methods)];
}

/** The tester controls; POST /__mock/reset puts everything back to the seed. */
export function controlHandlers(context: PanelContext, controls: PanelControls, origin: string) {
  const routes = [
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
  ];
  const unknownControl = controlRoute(context, async ({ request }) =>
    apiError('not_found', `no control ${request.method} ${new URL(request.url).pathname}`),
  );
  return [
    ...routes,
    // A known control asked with another method is told which it takes (RFC 9110, section 15.5.6). Like /api/leo's
    // 405 it needs no token: it says only what mock-panel/README.md says.
    http.all(routePredicate(origin, `${CONTROL_PREFIX}/*`), (info) => {
      const allow = allowedAt(routes, info.request);
      if (allow.length === 0) return unknownControl(info);
      return responseOf(methodNotAllowedAnswer(new URL(info.request.url).pathname, info.request.method, allow));
    }),
  ];
}
