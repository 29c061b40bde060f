import { getResponse, type HttpHandler } from 'msw';
import { type DirectRoute, directRouteOf } from '../handlers/direct-route';

type Step = { direct: DirectRoute } | { handlers: HttpHandler[] };

/**
 * The first answer of `handlers`, tried in order as msw's `getResponse` tries them: a route registered with
 * `directHandler` is matched and resolved directly, every other run of handlers goes through `getResponse`. A
 * Response the resolver throws is the answer, as in msw.
 */
export function handlerDispatch(handlers: readonly HttpHandler[]): (request: Request) => Promise<Response | undefined> {
  const steps: Step[] = [];
  for (const handler of handlers) {
    const direct = directRouteOf(handler);
    const last = steps.at(-1);
    if (direct) steps.push({ direct });
    else if (last && 'handlers' in last) last.handlers.push(handler);
    else steps.push({ handlers: [handler] });
  }
  return async (request) => {
    for (const step of steps) {
      if ('handlers' in step) {
        const response = await getResponse(step.handlers, request);
        if (response) return response;
        continue;
      }
      const { method, match, resolve } = step.direct;
      if (method !== undefined && method !== request.method.toUpperCase()) continue;
      const matched = match(request);
      if (!matched) continue;
      return await resolve({ request, params: matched.params }).catch((error: unknown) => {
        if (error instanceof Response) return error;
        throw error;
      });
    }
    return undefined;
  };
}
