import { type HttpHandler, http } from 'msw';
import { fetchRequestView } from '../../http/fetch-request-view';
import { responseOf } from '../../http/responses';
import type { PanelContext } from '../../panel-context';
import type { RouteMatch } from '../route-predicate';
import type { ServedRoute } from './pipeline';

/** An `/api/leo` route as the node:http server serves it, without msw or Fetch objects. */
export interface ApiEndpoint {
  /** Upper case; undefined for any method. */
  readonly method: string | undefined;
  readonly match: (url: URL) => RouteMatch;
  readonly serve: ServedRoute;
}

const endpoints = new WeakMap<HttpHandler, ApiEndpoint>();

/**
 * The msw handler of an `/api/leo` route (what `setupServer`, the tests and consumers use): it hands the route a view
 * of the Fetch Request and sends its answer as a Response. The node:http server finds the same route through
 * `apiEndpointOf` and serves it from the socket's own message, so both transports run one pipeline.
 */
export function apiHandler(
  context: PanelContext,
  method: 'GET' | 'POST' | 'ALL',
  match: (url: URL) => RouteMatch,
  serve: ServedRoute,
): HttpHandler {
  const handler = (method === 'GET' ? http.get : method === 'POST' ? http.post : http.all)(
    ({ request }) => match(new URL(request.url)),
    async ({ request, params }) =>
      responseOf(await serve(fetchRequestView(request, context.clientIpOf(request)), params)),
  );
  endpoints.set(handler, { method: method === 'ALL' ? undefined : method, match, serve });
  return handler;
}

export function apiEndpointOf(handler: HttpHandler): ApiEndpoint | undefined {
  return endpoints.get(handler);
}
