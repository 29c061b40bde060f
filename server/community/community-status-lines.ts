// In dist/redis.cjs: the community's part of `bridge status` is worded here, beside what it reports, so dist/server.js
// carries only the line of a server that runs alone (server/edge/commands/status.ts).
import type { CommunitySnapshot, Settling } from './community.js';
import type { HeldCall } from './held-for-redis.js';

const INDENT = '          ';
/** The held calls listed one by one; the rest are counted. */
const HELD_SHOWN = 5;
const seconds = (ms: number) => `${Math.max(0, Math.round(ms / 1000))} s`;

function redisLine({ up, since, reason }: CommunitySnapshot, now: number): string {
  if (since === undefined) return up ? 'Redis answers' : 'Redis not answered yet: connecting';
  if (up) return `Redis answers, for ${seconds(now - since)}`;
  return `Redis DOES NOT ANSWER, for ${seconds(now - since)} (${reason ?? 'no reason given'}); this server serves its own players`;
}

/**
 * The community's lines of `bridge status`: its id and panel, whether Redis answers and for how long, the servers
 * alive, who decides the budget, and what waits for Redis here (`held`, the longest waiting first), all at `now` on this
 * server's monotonic clock; last, what the duty owners still settle on their own after a fault, if it keeps them.
 */
export function communityStatusLines(
  community: CommunitySnapshot,
  held: readonly HeldCall[],
  now: number,
  settling?: Settling,
): string[] {
  const { budget } = community;
  const alive = community.up ? `; ${community.serversAlive} server(s) of the community alive` : '';
  const share = `1/${budget.servers} of what the panel says is left`;
  const budgetLine = budget.shared
    ? `budget shared by the community (${budget.servers} server(s) asked it in the last minute)`
    : budget.aloneForMs !== undefined
      ? `budget this server's own for ${seconds(budget.aloneForMs)} more (Redis was too slow three times in a row): ${share}`
      : `budget this server's own: ${share}, until Redis answers`;
  return [
    `community ${community.id} of the panel ${community.panel}, on Redis at ${community.where}`,
    `${INDENT}${redisLine(community, now)}${alive}`,
    `${INDENT}${budgetLine}`,
    held.length === 0 ? `${INDENT}held for Redis: nothing` : `${INDENT}held for Redis: ${held.length} call(s)`,
    ...held.slice(0, HELD_SHOWN).map(({ what, since }) => `${INDENT}  ${what}, for ${seconds(now - since)}`),
    ...(held.length > HELD_SHOWN ? [`${INDENT}  and ${held.length - HELD_SHOWN} more`] : []),
    ...(settling ? [`${INDENT}${settlingLine(settling)}`] : []),
  ];
}

/** What the community's duty owners still do on their own after a fault, or `settled`. */
function settlingLine(settling: Settling): string {
  const parts = [
    ...(settling.claims > 0 ? [`${settling.claims} claim(s) being written`] : []),
    ...(settling.restates > 0
      ? [`${settling.restates} on(s) to send again, the first in ${seconds(settling.nextRestateInMs ?? 0)}`]
      : []),
    ...(settling.checkAgainInMs !== undefined
      ? [`every claim checked again in ${seconds(settling.checkAgainInMs)}`]
      : []),
    ...(settling.takeovers > 0 ? [`${settling.takeovers} lapsed server(s) being taken over`] : []),
  ];
  return `duty owners ${parts.length === 0 ? 'settled' : `settling: ${parts.join(', ')}`}`;
}
