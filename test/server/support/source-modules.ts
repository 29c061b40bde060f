import * as integrationsEntry from '../../../server/integrations/integrations-entry.js';
import { INTEGRATIONS_MODULE } from '../../../server/integrations/load-integrations.js';
import type { LoadModule } from '../../../server/kernel/optional-module.js';
import { METRICS_MODULE } from '../../../server/metrics/load-metrics.js';
import * as metricsEntry from '../../../server/metrics/metrics-entry.js';

const FROM_SOURCE: Record<string, unknown> = {
  [METRICS_MODULE.path]: metricsEntry,
  [INTEGRATIONS_MODULE.path]: integrationsEntry,
};

/**
 * FXServer's `require` for a bridge run from source: the optional modules' entries themselves where the built bundle
 * loads dist/metrics.cjs and dist/integrations.cjs. The community's (ioredis) is not among them: the tests that need
 * Redis run the built bundles in the simulator.
 */
export const loadFromSource: LoadModule = (path) => {
  if (path in FROM_SOURCE) return FROM_SOURCE[path];
  throw Object.assign(new Error(`Cannot find module '${path}'`), { code: 'MODULE_NOT_FOUND' });
};
