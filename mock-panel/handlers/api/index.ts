import { http } from 'msw';
import { API_PREFIX, ROUTES } from '../../../shared/contract';
import { apiError } from '../../http/responses';
import type { PanelContext } from '../../panel-context';
import { routePredicate } from '../route-predicate';
import { departmentsRoute } from './departments';
import { dutyRoute } from './duty';
import { apiRoute } from './pipeline';

/** The `/api/leo` routes, then a catch-all so unknown paths under the prefix still count and answer 404. */
export function apiHandlers(context: PanelContext, origin: string) {
  const notFound = apiRoute(context, async ({ request }) =>
    apiError('not_found', `no route ${request.method} ${new URL(request.url).pathname}`),
  );
  return [
    http.get(routePredicate(origin, ROUTES.departments), apiRoute(context, departmentsRoute(context.store))),
    http.post(routePredicate(origin, ROUTES.duty), apiRoute(context, dutyRoute(context.store))),
    http.all(routePredicate(origin, `${API_PREFIX}/*`), notFound),
  ];
}
