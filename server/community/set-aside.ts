import type { Logger } from '../kernel/index.js';
import { errorText } from '../kernel/index.js';
import type { CommunityLink } from './community.js';

/**
 * A key of ours that holds another type than the bridge writes there (another program wrote it) fails every command
 * with WRONGTYPE: it is renamed to `<key>:set-aside`, where an owner can look at it, with one line, and the bridge
 * writes its own again. Any other failure is Redis being gone or slow, which the caller handles. Says whether the
 * failure was a WRONGTYPE.
 * `keys`: each key the failed command touched, with the Redis type the bridge keeps there.
 */
// Checked and renamed in one step: a value the bridge wrote meanwhile is never the one set aside.
const SET_ASIDE = `
local type = redis.call('TYPE', KEYS[1]).ok
if type == 'none' or type == ARGV[1] then return false end
redis.call('RENAME', KEYS[1], KEYS[2])
return type`;

export function setAsideWrongType(
  link: CommunityLink,
  error: unknown,
  keys: Readonly<Record<string, 'string' | 'hash' | 'zset'>>,
  logger: Logger,
): boolean {
  if (!errorText(error).includes('WRONGTYPE')) return false;
  for (const [key, expected] of Object.entries(keys)) {
    void link
      // Both keys named to the script, as Redis asks of every key a script touches.
      .script<string | null>(SET_ASIDE, [key, `${key}:set-aside`], [expected])
      .then((type) => {
        if (!type) return;
        logger.warn(
          `Redis holds a ${type} under ${key}, not the ${expected} the bridge keeps there; it is set aside as ${key}:set-aside`,
        );
      })
      .catch(() => {});
  }
  return true;
}
