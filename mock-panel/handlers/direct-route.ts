import { type HttpHandler, http } from 'msw';

export type RouteMatch = false | { matches: true; params: Record<string, string> };

/** A route's own parts, as the node:http server calls them: its predicate and resolver read the request only. */
export interface DirectRoute {
  /** Upper case; undefined for any method. */
  method: string | undefined;
  match(request: Request): RouteMatch;
  resolve(info: { request: Request; params: Record<string, string> }): Promise<Response>;
}

type Method = 'GET' | 'POST' | 'ALL';

const directRoutes = new WeakMap<HttpHandler, DirectRoute>();

/**
 * An msw handler (what `setupServer` and everything else uses) whose predicate and resolver the node:http server
 * may also call directly. Under load msw's per-request work around a resolver (a clone of the request, the cookie
 * store, an abort controller per request) costs more than the panel's own answer, and a route registered here uses
 * none of it: its predicate reads neither cookies nor the body, its resolver answers once per request (no `once`,
 * no generator) and its answers set no cookies. Only routes that keep to that may be registered.
 */
export function directHandler(
  method: Method,
  match: (args: { request: Request }) => RouteMatch,
  resolve: DirectRoute['resolve'],
): HttpHandler {
  const handler = (method === 'GET' ? http.get : method === 'POST' ? http.post : http.all)(match, resolve);
  directRoutes.set(handler, {
    method: method === 'ALL' ? undefined : method,
    match: (request) => match({ request }),
    resolve,
  });
  return handler;
}

export function directRouteOf(handler: HttpHandler): DirectRoute | undefined {
  return directRoutes.get(handler);
}
