import { methodNotAllowedAnswer } from '../../http/responses';
import type { PanelContext } from '../../panel-context';
import { type ApiRoute, apiRoute, type ServedRoute } from './pipeline';

/** The routes of one `/api/leo` path by method (upper case). */
export type PathMethods = Partial<Record<'GET' | 'POST', ApiRoute>>;

/** The methods a path takes: its own, HEAD wherever GET is, and OPTIONS. */
export function allowedMethods(methods: PathMethods): string[] {
  const own = Object.keys(methods);
  return [...own, ...(own.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
}

/**
 * One `/api/leo` path as HTTP clients expect it (RFC 9110, sections 9.3.2, 9.3.7 and 15.5.6): each of its methods
 * served through the panel's pipeline, HEAD as GET without the body, OPTIONS answered 204 with `Allow`, and any other
 * method 405 `method_not_allowed` with `Allow`. OPTIONS and the 405 need no token: they say only what the published
 * OpenAPI document says, and a browser's CORS preflight never carries one.
 */
export function pathRoute(context: PanelContext, methods: PathMethods): ServedRoute {
  const allowed = allowedMethods(methods);
  const allow = allowed.join(', ');
  const served = new Map<string, ServedRoute>(
    Object.entries(methods).map(([method, route]) => [method, apiRoute(context, route)]),
  );
  const get = served.get('GET');
  if (get) served.set('HEAD', get);
  served.set(
    'OPTIONS',
    apiRoute(context, async () => ({ status: 204, headers: [['Allow', allow]], body: '' }), 'open'),
  );
  const notAllowed = apiRoute(
    context,
    async (request) => methodNotAllowedAnswer(request.pathname, request.method, allowed),
    'open',
  );
  return (request, params) => (served.get(request.method) ?? notAllowed)(request, params);
}
