export type { CommunityStatus, StatusSnapshot } from './bridge-metrics.js';
export { startMetricsWhenOn } from './load-metrics.js';
export { departmentsSeen$ } from './seen-departments.js';
