export * from './ace-principals.js';
export * from './commands/status.js';
export * from './duty-state-bag.js';
