// A real Redis for the tests (sim/community/redis-server.ts, which the playground and the bench use too). `.ci/run`
// installs redis-server; on CI (test/support/on-ci.ts) a missing one fails the tests instead of skipping them.

import { findRedisServer, REDIS_SERVER_INSTALL } from '../../sim/community/redis-server.js';
import { onCi } from './on-ci.js';

export { type RedisServer, type RedisServerOptions, startRedisServer } from '../../sim/community/redis-server.js';

export const REDIS_SERVER_BINARY = findRedisServer();

/**
 * Whether the Redis tests can run here. Without redis-server they are skipped on a developer's machine and fail in
 * CI, where `.ci/run` must have installed it: `describe.skipIf(!redisAvailable())`.
 */
export function redisAvailable(): boolean {
  if (REDIS_SERVER_BINARY) return true;
  if (onCi) {
    throw new Error(
      `redis-server is not installed, and CI must run the Redis tests: .ci/run installs it (${REDIS_SERVER_INSTALL})`,
    );
  }
  return false;
}
