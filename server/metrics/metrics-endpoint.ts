import type { HttpAnswer, HttpRequest, Logger } from '../kernel/index.js';
import { errorText } from '../kernel/index.js';
import { bearerToken, sameToken } from './bearer-token.js';
import { EXPOSITION_CONTENT_TYPE } from './exposition.js';

export const METRICS_PATH = '/metrics';
/** What the endpoint answers; HEAD is GET without the body (RFC 9110: a server that answers GET answers HEAD). */
const ALLOWED = 'GET, HEAD';

const TEXT = 'text/plain; charset=utf-8';
const plain = (status: number, body: string, headers: Record<string, string> = {}): HttpAnswer => ({
  status,
  headers: { 'Content-Type': TEXT, ...headers },
  body: `${body}\n`,
});

export interface MetricsEndpointOptions {
  /** The bearer token a scraper must send (the metrics token convar, never the panel token). */
  token: string;
  /** The exposition, read when a scrape arrives. */
  render: () => string;
  logger: Logger;
}

/**
 * The resource's HTTP handler: `GET /metrics` (or `/metrics/`) with the metrics token answers the exposition, and
 * HEAD the same without the body; any other path is not found, another method is not allowed, and a missing or wrong
 * token is refused with the Bearer challenge (RFC 6750).
 */
export function metricsEndpoint(options: MetricsEndpointOptions): (request: HttpRequest) => HttpAnswer {
  const answerGet = getAnswer(options);
  return (request) => {
    if (request.method !== 'HEAD') return answerGet(request);
    return { ...answerGet({ ...request, method: 'GET' }), body: '' };
  };
}

function getAnswer({ token, render, logger }: MetricsEndpointOptions): (request: HttpRequest) => HttpAnswer {
  return (request) => {
    const path = request.path.split('?')[0];
    if (path !== METRICS_PATH && path !== `${METRICS_PATH}/`) {
      return plain(404, 'not found: the bridge serves only /metrics');
    }
    if (request.method !== 'GET') return plain(405, `method not allowed: use ${ALLOWED}`, { Allow: ALLOWED });
    const given = bearerToken(request.headers.authorization);
    if (given === undefined) {
      return plain(401, 'a bearer token is required', { 'WWW-Authenticate': 'Bearer realm="bridge metrics"' });
    }
    if (!sameToken(given, token)) {
      return plain(401, 'the bearer token is not valid', {
        'WWW-Authenticate': 'Bearer realm="bridge metrics", error="invalid_token"',
      });
    }
    try {
      return { status: 200, headers: { 'Content-Type': EXPOSITION_CONTENT_TYPE }, body: render() };
    } catch (error) {
      logger.error(`metrics: reading the figures failed: ${errorText(error)}`);
      return plain(500, 'the metrics could not be read; the server console says why');
    }
  };
}
