import type { BridgeConfig } from '../../shared/config/schema.js';
import { type LoadModule, type OptionalModule, startOptionalModule } from '../optional-modules/load-optional-module.js';
import type { Integrations, IntegrationsOptions } from './create-integrations.js';
import type * as IntegrationsEntry from './integrations-entry.js';

/** dist/integrations.cjs (server/integrations/integrations-entry.ts). */
export const INTEGRATIONS_MODULE: OptionalModule = {
  path: './dist/integrations.cjs',
  start: 'createIntegrations' satisfies keyof typeof IntegrationsEntry,
  without: 'The job framework and rcore_police integrations stay off.',
};

/** No integration turned on, or none that could be loaded: every duty change and drop is heard by nobody. */
export const NO_INTEGRATIONS: Integrations = {
  integrations: [],
  dutyChanged() {},
  playerDropped() {},
  footprint: () => ({}),
};

/** What config.lua turned on, as the owner wrote it: `Config.Integrations.JobFramework is 'qbcore'`. */
function turnedOn(config: BridgeConfig['Integrations']): string[] {
  return [
    ...(config.JobFramework === false ? [] : [`Config.Integrations.JobFramework is '${config.JobFramework}'`]),
    ...(config.RcorePolice ? ['Config.Integrations.RcorePolice is on'] : []),
  ];
}

/**
 * With an integration turned on, loads dist/integrations.cjs and creates the integrations config.lua asks for;
 * without one, the file is never parsed.
 */
export function loadIntegrations(options: IntegrationsOptions, load: LoadModule | undefined): Integrations {
  const wanted = turnedOn(options.config);
  if (wanted.length === 0) return NO_INTEGRATIONS;
  const loading = { wanted: wanted.join(' and '), load, logger: options.logger };
  return (
    startOptionalModule<typeof IntegrationsEntry.createIntegrations>(INTEGRATIONS_MODULE, loading, options) ??
    NO_INTEGRATIONS
  );
}
