export type { CommunityStatus, StatusSnapshot } from './bridge-metrics.js';
export * from './load-metrics.js';
export * from './seen-departments.js';
