import type { Community, HeldForRedis } from '../../community/index.js';
import { REDIS_URL_CONVAR } from '../../kernel/index.js';
import type { StatusSnapshot } from '../../metrics/index.js';

/**
 * The community's part of `bridge status`, read when the command runs: what Redis does, what waits for it here, and
 * what the duty owners still settle on their own (community-status-lines.ts).
 */
export const communityStatusOf =
  (
    redisUrl: string,
    community: Pick<Community, 'statusLines'> | undefined,
    held: Pick<HeldForRedis, 'list'>,
    now: () => number,
  ) =>
  (): NonNullable<StatusSnapshot['community']> => {
    if (!redisUrl) return { alone: `${REDIS_URL_CONVAR} is not set` };
    if (!community)
      return {
        alone: `${REDIS_URL_CONVAR} is set but the community's module did not start (the ERROR at start says why)`,
      };
    return { lines: community.statusLines(held.list(), now()) };
  };
