export * from './commands/status.js';
export * from './permissions/duty-principals.js';
export * from './permissions/principal-grants.js';
export * from './state/bridge-duty-key.js';
export * from './state/state-bag-guard.js';
