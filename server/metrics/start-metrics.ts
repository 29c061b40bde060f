import { type Observable, Subscription } from 'rxjs';
import type { BridgeConfig } from '../../shared/config/index.js';
import type { Logger, ServerPort } from '../kernel/index.js';
import { bridgeMetrics, type MetricsReading } from './bridge-metrics.js';
import { renderExposition } from './exposition.js';
import { METRICS_PATH, metricsEndpoint } from './metrics-endpoint.js';
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
