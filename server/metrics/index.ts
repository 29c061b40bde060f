export * from './load-metrics.js';
export * from './seen-departments.js';
