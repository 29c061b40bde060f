import { API_PREFIX, ROUTES } from '../../../shared/contract';
import { apiErrorAnswer } from '../../http/responses';
import type { PanelContext } from '../../panel-context';
import { routeMatcher } from '../route-predicate';
import { apiHandler } from './api-handler';
import { departmentsRoute } from './departments';
import { dutyRoute } from './duty';
import { apiRoute } from './pipeline';

/**
 * The `/api/leo` routes, then a catch-all so unknown paths under the prefix still count and answer 404. They are what
 * a load test hits, so the node:http server serves them without msw (api-handler.ts).
 */
export function apiHandlers(context: PanelContext, origin: string) {
  const notFound = apiRoute(context, async (request) =>
    apiErrorAnswer('not_found', `no route ${request.method} ${request.pathname}`),
  );
  return [
    apiHandler(
      context,
      'GET',
      routeMatcher(origin, ROUTES.departments),
      apiRoute(context, departmentsRoute(context.store)),
    ),
    apiHandler(context, 'POST', routeMatcher(origin, ROUTES.duty), apiRoute(context, dutyRoute(context.store))),
    apiHandler(context, 'ALL', routeMatcher(origin, `${API_PREFIX}/*`), notFound),
  ];
}
