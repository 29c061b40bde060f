import { API_PREFIX, ROUTES } from '../../../shared/contract';
import { apiError } from '../../http/responses';
import type { PanelContext } from '../../panel-context';
import { directHandler } from '../direct-route';
import { routePredicate } from '../route-predicate';
import { departmentsRoute } from './departments';
import { dutyRoute } from './duty';
import { apiRoute } from './pipeline';

/**
 * The `/api/leo` routes, then a catch-all so unknown paths under the prefix still count and answer 404. They are what
 * a load test hits, so the node:http server calls them directly (direct-route.ts).
 */
export function apiHandlers(context: PanelContext, origin: string) {
  const notFound = apiRoute(context, async ({ request }) =>
    apiError('not_found', `no route ${request.method} ${new URL(request.url).pathname}`),
  );
  return [
    directHandler(
      'GET',
      routePredicate(origin, ROUTES.departments),
      apiRoute(context, departmentsRoute(context.store)),
    ),
    directHandler('POST', routePredicate(origin, ROUTES.duty), apiRoute(context, dutyRoute(context.store))),
    directHandler('ALL', routePredicate(origin, `${API_PREFIX}/*`), notFound),
  ];
}
