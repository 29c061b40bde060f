// dist/metrics.cjs: the Prometheus metrics endpoint (Config.Metrics), a CommonJS module of its own that
// server/metrics/load-metrics.ts loads only when the config turns it on (server/kernel/optional-module.ts says how and why).
// It gets plain functions and data from dist/server.js, and the departments as an Observable it only subscribes to.
export { startMetrics } from './start-metrics.js';
