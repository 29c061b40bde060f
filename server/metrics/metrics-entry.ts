// dist/metrics.cjs: the Prometheus metrics endpoint (Config.Metrics), a CommonJS module of its own that
// server/metrics/load-metrics.ts loads only when the config turns it on (server/kernel/optional-module.ts says how and why).
// It gets plain functions and data from dist/server.js, and the departments as an Observable it only subscribes to.
// Here: the checks of the metrics token, the endpoint, and how it reads the bearer token.
import { createHash, timingSafeEqual } from 'node:crypto';
import { type Observable, Subscription } from 'rxjs';
import type { BridgeConfig } from '../../shared/config/index.js';
import type { HttpAnswer, HttpRequest, Logger, ServerPort } from '../kernel/index.js';
import { errorText } from '../kernel/index.js';
import { bridgeMetrics, EXPOSITION_CONTENT_TYPE, type MetricsReading, renderExposition } from './bridge-metrics.js';
import { type DepartmentNews, SeenDepartments } from './seen-departments.js';

/** The convar holding the token scrapers send; its own, so a leaked scrape config never exposes the panel token. */
export const METRICS_TOKEN_CONVAR = 'bridge_metrics_token';

/** Fewer characters than this is a password, not a random token. */
export const METRICS_TOKEN_MIN_LENGTH = 24;

export interface MetricsWiring {
  port: Pick<ServerPort, 'convar' | 'httpHandler' | 'resourceName'>;
  config: Pick<BridgeConfig, 'Metrics'>;
  logger: Logger;
  /** The panel token (empty when not set), which the metrics token must not be. */
  panelToken: string;
  read: () => MetricsReading;
  /** Departments the bridge comes across, kept at 0 in the exposition once nobody is on duty there, and renamed ones gone. */
  departments$: Observable<DepartmentNews>;
}

const FIX =
  `Set a random string of ${METRICS_TOKEN_MIN_LENGTH} or more characters without spaces (\`openssl rand -hex 16\` ` +
  `makes one) with \`set ${METRICS_TOKEN_CONVAR} "<token>"\` in server.cfg and restart the resource.`;

/**
 * Serves the metrics when Config.Metrics is on and the metrics token is usable; says why not otherwise. Unsubscribing
 * the result stops watching the departments.
 */
export function startMetrics({ port, config, logger, panelToken, read, departments$ }: MetricsWiring): Subscription {
  const off = new Subscription();
  if (!config.Metrics) return off;
  const token = port.convar(METRICS_TOKEN_CONVAR).trim();
  const stays = 'the metrics endpoint stays off';
  if (token === '') {
    logger.error(
      `Config.Metrics is on but the convar ${METRICS_TOKEN_CONVAR} is not set: ${stays}. Add ` +
        `\`set ${METRICS_TOKEN_CONVAR} "<token>"\` to server.cfg (set, not setr; \`openssl rand -hex 16\` makes a ` +
        'token) and restart the resource.',
    );
    return off;
  }
  if (panelToken !== '' && token === panelToken) {
    logger.error(
      `${METRICS_TOKEN_CONVAR} is the panel token: ${stays}. Give the metrics a token of their own, so a scraper's ` +
        'configuration never holds the key to the panel.',
    );
    return off;
  }
  if (/\s/.test(token)) {
    logger.error(
      `${METRICS_TOKEN_CONVAR} has whitespace in it, and a scraper sends the token as one word after "Bearer", so ` +
        `every scrape would be refused: ${stays}. ${FIX}`,
    );
    return off;
  }
  if (token.length < METRICS_TOKEN_MIN_LENGTH) {
    logger.error(
      `${METRICS_TOKEN_CONVAR} is ${token.length} characters long, fewer than ${METRICS_TOKEN_MIN_LENGTH}, and ` +
        `anyone who can reach the server's port could guess it: ${stays}. ${FIX}`,
    );
    return off;
  }
  const seen = new SeenDepartments();
  const watching = departments$.subscribe((news) => seen.take(news));
  const render = () => {
    const reading = read();
    return renderExposition(
      bridgeMetrics({ ...reading, onDutyByDepartment: seen.withZeros(reading.onDutyByDepartment) }),
    );
  };
  port.httpHandler(metricsEndpoint({ token, logger, render }));
  // FXServer serves the handler under the resource's name (its folder's), which an owner may have changed.
  logger.info(
    `metrics: Prometheus metrics at /${port.resourceName}${METRICS_PATH} (bearer token from ${METRICS_TOKEN_CONVAR})`,
  );
  return watching;
}

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

const digest = (text: string) => createHash('sha256').update(text).digest();

/** The token of an `Authorization: Bearer <token>` header, or undefined when there is none. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  return match?.[1];
}

/**
 * Compares in time independent of where the tokens differ and of their lengths: both sides are hashed to the same
 * size first, since timingSafeEqual throws on buffers of different lengths.
 */
export const sameToken = (given: string, expected: string): boolean => timingSafeEqual(digest(given), digest(expected));
