import { API_PREFIX, ROUTES } from '../../../shared/contract';
import { apiErrorAnswer } from '../../http/responses';
import type { PanelContext } from '../../panel-context';
import { routeMatcher } from '../route-predicate';
import { apiHandler } from './api-handler';
import { departmentsRoute } from './departments';
import { dutyRoute } from './duty';
import { pathRoute } from './path-methods';
import { apiRoute } from './pipeline';

/**
 * The `/api/leo` paths, each with its methods (path-methods.ts), then a catch-all so unknown paths under the prefix
 * still count and answer 404. They are what a load test hits, so the node:http server serves them without msw
 * (api-handler.ts).
 */
export function apiHandlers(context: PanelContext, origin: string) {
  const notFound = apiRoute(context, async (request) =>
    apiErrorAnswer('not_found', `no route ${request.method} ${request.pathname}`),
  );
  return [
    apiHandler(
      context,
      routeMatcher(origin, ROUTES.departments),
      pathRoute(context, { GET: departmentsRoute(context.store) }),
    ),
    apiHandler(context, routeMatcher(origin, ROUTES.duty), pathRoute(context, { POST: dutyRoute(context.store) })),
    apiHandler(context, routeMatcher(origin, `${API_PREFIX}/*`), notFound),
  ];
}
