import type { Unsubscribable } from 'rxjs';
import { type LoadModule, type OptionalModule, startOptionalModule } from '../kernel/index.js';
import type * as MetricsEntry from './metrics-entry.js';
import type { MetricsWiring } from './metrics-entry.js';

/** dist/metrics.cjs (server/metrics/metrics-entry.ts). */
export const METRICS_MODULE: OptionalModule = {
  path: './dist/metrics.cjs',
  start: 'startMetrics' satisfies keyof typeof MetricsEntry,
  without: 'The metrics endpoint stays off.',
};

const NOTHING_TO_STOP: Unsubscribable = { unsubscribe() {} };

/**
 * With Config.Metrics on, loads dist/metrics.cjs and serves the metrics; without it, the file is never parsed.
 * Unsubscribing the result stops watching the departments.
 */
export function startMetricsWhenOn(wiring: MetricsWiring, load: LoadModule | undefined): Unsubscribable {
  if (!wiring.config.Metrics) return NOTHING_TO_STOP;
  const wanted = { wanted: 'Config.Metrics is on', load, logger: wiring.logger };
  return startOptionalModule<typeof MetricsEntry.startMetrics>(METRICS_MODULE, wanted, wiring) ?? NOTHING_TO_STOP;
}
