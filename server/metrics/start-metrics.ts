import type { BridgeConfig } from '../../shared/config/index.js';
import type { Logger } from '../log/logger.js';
import type { ServerPort } from '../server-port.js';
import { bridgeMetrics, type MetricsReading } from './bridge-metrics.js';
import { renderExposition } from './exposition.js';
import { METRICS_PATH, metricsEndpoint } from './metrics-endpoint.js';

/** The convar holding the token scrapers send; its own, so a leaked scrape config never exposes the panel token. */
export const METRICS_TOKEN_CONVAR = 'bridge_metrics_token';

export interface MetricsWiring {
  port: Pick<ServerPort, 'convar' | 'httpHandler'>;
  config: Pick<BridgeConfig, 'Metrics'>;
  logger: Logger;
  /** The panel token (empty when not set), which the metrics token must not be. */
  panelToken: string;
  read: () => MetricsReading;
}

/** Serves the metrics when Config.Metrics is on and the metrics token is usable; says why not otherwise. */
export function startMetrics({ port, config, logger, panelToken, read }: MetricsWiring): boolean {
  if (!config.Metrics) return false;
  const token = port.convar(METRICS_TOKEN_CONVAR).trim();
  const off = 'the metrics endpoint stays off';
  if (token === '') {
    logger.error(
      `Config.Metrics is on but the convar ${METRICS_TOKEN_CONVAR} is not set: ${off}. Add ` +
        `\`set ${METRICS_TOKEN_CONVAR} "<a long random string>"\` to server.cfg (set, not setr) and restart the resource.`,
    );
    return false;
  }
  if (panelToken !== '' && token === panelToken) {
    logger.error(
      `${METRICS_TOKEN_CONVAR} is the panel token: ${off}. Give the metrics a token of their own, so a scraper's ` +
        'configuration never holds the key to the panel.',
    );
    return false;
  }
  port.httpHandler(metricsEndpoint({ token, logger, render: () => renderExposition(bridgeMetrics(read())) }));
  logger.info(`metrics: Prometheus metrics at /<resource>${METRICS_PATH} (bearer token from ${METRICS_TOKEN_CONVAR})`);
  return true;
}
