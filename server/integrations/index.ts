// Types only from create-integrations: its code belongs to dist/integrations.cjs, which dist/server.js loads on demand.
export type { Integrations, IntegrationsOptions } from './create-integrations.js';
export type { DutyChange, DutyControl, Integration } from './integration.js';
export * from './load-integrations.js';
