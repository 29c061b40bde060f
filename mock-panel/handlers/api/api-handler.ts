import { type HttpHandler, http } from 'msw';
import { fetchRequestView } from '../../http/fetch-request-view';
import { responseOf } from '../../http/responses';
import type { PanelContext } from '../../panel-context';
import type { RouteMatch } from '../route-predicate';
import type { ServedRoute } from './pipeline';

/** An `/api/leo` path as the node:http server serves it, without msw or Fetch objects. */
export interface ApiEndpoint {
  readonly match: (url: URL) => RouteMatch;
  /** Answers every method: the path's route tells its methods apart (path-methods.ts). */
  readonly serve: ServedRoute;
}

const endpoints = new WeakMap<HttpHandler, ApiEndpoint>();

/**
 * The msw handler of an `/api/leo` path (what `setupServer`, the tests and consumers use): it hands the route a view
 * of the Fetch Request and sends its answer as a Response. The node:http server finds the same route through
 * `apiEndpointOf` and serves it from the socket's own message, so both transports run one pipeline.
 */
export function apiHandler(context: PanelContext, match: (url: URL) => RouteMatch, serve: ServedRoute): HttpHandler {
  const handler = http.all(
    ({ request }) => match(new URL(request.url)),
    async ({ request, params }) =>
      responseOf(await serve(fetchRequestView(request, context.clientIpOf(request)), params)),
  );
  endpoints.set(handler, { match, serve });
  return handler;
}

export function apiEndpointOf(handler: HttpHandler): ApiEndpoint | undefined {
  return endpoints.get(handler);
}
