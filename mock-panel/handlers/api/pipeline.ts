import { sleepUnlessAborted } from '../../abortable-wait';
import { bearerChallenge, isBearerToken } from '../../http/bearer-auth';
import { malformedAnswer } from '../../http/malformed-body';
import {
  type HttpAnswer,
  isNetworkError,
  NETWORK_ERROR,
  type PanelAnswer,
  type PanelRequest,
  withHeaders,
} from '../../http/panel-exchange';
import { PROXY_NOT_FOUND } from '../../http/proxy-not-found';
import { rateLimitHeaders, retryAfterHeader } from '../../http/rate-limit-headers';
import { apiErrorAnswer, unauthorizedAnswer } from '../../http/responses';
import { isStartupCheck } from '../../http/startup-check';
import type { PanelContext } from '../../panel-context';
import type { FaultApplied } from '../../store';

export type RouteParams = Record<string, string | readonly string[] | undefined>;

export type ApiRoute = (request: PanelRequest, params: RouteParams) => Promise<HttpAnswer>;

/** An `/api/leo` route with the panel's pipeline around it, as both transports serve it. */
export type ServedRoute = (request: PanelRequest, params: RouteParams) => Promise<PanelAnswer>;

/**
 * `token`: the route needs the bearer token. `open`: it answers without one, as what it says (the methods of a path)
 * is what the published OpenAPI document says anyway, and a CORS preflight never carries credentials.
 */
export type RouteAccess = 'token' | 'open';

/** Thrown for an injected `internal_error`, so it travels the same path as a real bug. */
class InjectedFault extends Error {}

/**
 * Wraps an `/api/leo` route in what the real panel puts around it, in this order: network faults (latency,
 * outage), the rate limiter (every request counts, as express-rate-limit mounted on the router), injected error
 * statuses, bearer auth, the route, malformed bodies, and a catch-all that turns any exception into a 500
 * without a stack trace. Every request lands in the request log.
 */
export function apiRoute(context: PanelContext, route: ApiRoute, access: RouteAccess = 'token'): ServedRoute {
  return async (request, params) => {
    const startedAt = performance.now();
    const time = new Date(context.store.now()).toISOString();
    const faults: FaultApplied[] = [];
    const answer = headless(await answerOf(context, request, params, route, access, faults), request);
    context.store.requests.record({
      time,
      method: request.method,
      path: request.pathname,
      status: isNetworkError(answer) ? null : answer.status,
      latencyMs: Math.round(performance.now() - startedAt),
      clientIp: request.clientIp,
      faults,
      ...(isStartupCheck(request) ? { startupCheck: true as const } : {}),
    });
    return answer;
  };
}

/** The answer to a HEAD is the answer to its GET, headers and declared length included, without the body. */
function headless(answer: PanelAnswer, request: PanelRequest): PanelAnswer {
  return request.method === 'HEAD' && !isNetworkError(answer) ? { ...answer, headOnly: true } : answer;
}

async function answerOf(
  context: PanelContext,
  request: PanelRequest,
  params: RouteParams,
  route: ApiRoute,
  access: RouteAccess,
  faults: FaultApplied[],
): Promise<PanelAnswer> {
  const { store } = context;
  if (store.faults.latency > 0) {
    faults.push('latency');
    if (!(await sleepUnlessAborted(store.faults.latency, request.signal()))) return NETWORK_ERROR;
  }
  const outage = store.faults.rollOutage();
  if (outage) {
    faults.push(outage);
    // The proxy in front of the panel answers for it: the panel never sees the request, its limiter does not count it.
    if (outage === 'proxy_404') return PROXY_NOT_FOUND;
    if (outage === 'hang') await store.faults.hang(request.signal());
    return NETWORK_ERROR;
  }

  const limit = store.rateLimiter.hit(request.clientIp);
  const nowMs = store.now();
  const headers = rateLimitHeaders(limit, store.rateLimiter.policy.windowMs, context.rateLimitHeaders, nowMs);
  const answer = limit.exceeded
    ? apiErrorAnswer('rate_limited', 'too many requests, please try again later')
    : challenged(await guarded(context, request, params, route, access, faults), request);
  // Every 429, the limiter's own or one a tester injected, says when to come back: a client that honours it is
  // tested against what a real panel sends.
  const style = context.rateLimitHeaders;
  if (answer.status === 429 && (style.legacyHeaders || style.standardHeaders)) {
    headers.push(retryAfterHeader(limit, nowMs));
  }
  return withHeaders(answer, headers);
}

/** A 401, real or injected, names what was wrong with the credentials the request sent (bearerChallenge). */
function challenged(answer: HttpAnswer, request: PanelRequest): HttpAnswer {
  if (answer.status !== 401) return answer;
  return withHeaders(answer, [['WWW-Authenticate', bearerChallenge(request.header('authorization'))]]);
}

async function guarded(
  context: PanelContext,
  request: PanelRequest,
  params: RouteParams,
  route: ApiRoute,
  access: RouteAccess,
  faults: FaultApplied[],
): Promise<HttpAnswer> {
  try {
    const injected = context.store.faults.rollError();
    if (injected) {
      faults.push('error');
      if (injected === 'internal_error') throw new InjectedFault('injected internal_error');
      return apiErrorAnswer(injected, 'injected by the mock panel');
    }
    if (access === 'token' && !isBearerToken(request.header('authorization'), context.token)) {
      return unauthorizedAnswer(request.header('authorization'));
    }
    const answer = await route(request, params);
    const malformed = context.store.faults.rollMalformed();
    if (!malformed) return answer;
    faults.push('malformed');
    return malformedAnswer(answer, malformed);
  } catch (error) {
    if (!(error instanceof InjectedFault)) context.onUnexpectedError(error);
    return apiErrorAnswer('internal_error', 'the panel failed unexpectedly');
  }
}
