import { HttpResponse } from 'msw';
import { sleepUnlessAborted } from '../../abortable-wait';
import { hasBearerToken } from '../../http/bearer-auth';
import { malformedResponse } from '../../http/malformed-body';
import { rateLimitHeaders, retryAfterHeader } from '../../http/rate-limit-headers';
import { apiError } from '../../http/responses';
import type { PanelContext } from '../../panel-context';
import type { FaultApplied } from '../../store';

export type RouteParams = Record<string, string | readonly string[] | undefined>;

export type ApiRoute = (info: { request: Request; params: RouteParams }) => Promise<Response>;

/** Thrown for an injected `internal_error`, so it travels the same path as a real bug. */
class InjectedFault extends Error {}

/**
 * Wraps an `/api/leo` route in what the real panel puts around it, in this order: network faults (latency,
 * outage), the rate limiter (every request counts, as express-rate-limit mounted on the router), injected error
 * statuses, bearer auth, the route, malformed bodies, and a catch-all that turns any exception into a 500
 * without a stack trace. Every request lands in the request log.
 */
export function apiRoute(context: PanelContext, route: ApiRoute) {
  return async ({ request, params }: { request: Request; params: RouteParams }): Promise<Response> => {
    const startedAt = performance.now();
    const time = new Date(context.store.now()).toISOString();
    const clientIp = context.clientIpOf(request);
    const faults: FaultApplied[] = [];
    const response = await answer(context, { request, params }, route, clientIp, faults);
    context.store.requests.record({
      time,
      method: request.method,
      path: new URL(request.url).pathname,
      status: response.type === 'error' ? null : response.status,
      latencyMs: Math.round(performance.now() - startedAt),
      clientIp,
      faults,
    });
    return response;
  };
}

async function answer(
  context: PanelContext,
  info: { request: Request; params: RouteParams },
  route: ApiRoute,
  clientIp: string,
  faults: FaultApplied[],
): Promise<Response> {
  const { store } = context;
  if (store.faults.latency > 0) {
    faults.push('latency');
    if (!(await sleepUnlessAborted(store.faults.latency, info.request.signal))) return HttpResponse.error();
  }
  const outage = store.faults.rollOutage();
  if (outage) {
    faults.push(outage);
    if (outage === 'hang') await store.faults.hang(info.request.signal);
    return HttpResponse.error();
  }

  const limit = store.rateLimiter.hit(clientIp);
  const nowMs = store.now();
  const headers = rateLimitHeaders(limit, store.rateLimiter.policy.windowMs, context.rateLimitHeaders, nowMs);
  let response: Response;
  if (limit.exceeded) {
    const style = context.rateLimitHeaders;
    if (style.legacyHeaders || style.standardHeaders) headers.push(retryAfterHeader(limit, nowMs));
    response = apiError('rate_limited', 'too many requests, please try again later');
  } else {
    response = await guarded(context, info, route, faults);
  }
  for (const [name, value] of headers) response.headers.set(name, value);
  return response;
}

async function guarded(
  context: PanelContext,
  info: { request: Request; params: RouteParams },
  route: ApiRoute,
  faults: FaultApplied[],
): Promise<Response> {
  try {
    const injected = context.store.faults.rollError();
    if (injected) {
      faults.push('error');
      if (injected === 'internal_error') throw new InjectedFault('injected internal_error');
      return apiError(injected, 'injected by the mock panel');
    }
    if (!hasBearerToken(info.request, context.token)) {
      return apiError('unauthorized', 'send Authorization: Bearer <LEO_API_TOKEN>');
    }
    const response = await route(info);
    const malformed = context.store.faults.rollMalformed();
    if (!malformed) return response;
    faults.push('malformed');
    return await malformedResponse(response, malformed);
  } catch (error) {
    if (!(error instanceof InjectedFault)) context.onUnexpectedError(error);
    return apiError('internal_error', 'the panel failed unexpectedly');
  }
}
