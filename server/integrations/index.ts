export * from './create-integrations.js';
export * from './integration.js';
export * from './load-integrations.js';
