import type { DegradedMode } from '../../shared/config/index.js';
import type { CommunitySnapshot } from '../community/community.js';
import type { Settling } from '../community/duty-owner-api.js';
import type { HeldCall } from '../community/held-for-redis.js';
import type { OutboxStats } from '../duty/outbox.js';
import type { CircuitSnapshot } from '../panel/health/circuit-breaker.js';
import type { LatencyStats } from '../panel/health/latency-stats.js';
import type { BudgetSnapshot } from '../panel/rate-limit/rate-budget.js';
import type { SchedulerStats } from '../panel/scheduling/request-scheduler.js';

/** Everything `bridge status` shows, read at the moment it runs. */
export interface StatusSnapshot {
  /** The monotonic clock: every time below is on it, except the outbox's record times. */
  now: number;
  /** The wall clock, for the outbox's record times (kept in KVP across restarts, so on the wall clock). */
  wallNow: number;
  /** Undefined when the convars are missing and the bridge is inert. */
  panel:
    | {
        apiBase: string;
        circuit: CircuitSnapshot;
        latency: ReturnType<LatencyStats['snapshot']>;
        budget: BudgetSnapshot;
        scheduler: SchedulerStats;
        outbox: OutboxStats;
        degradedMode: DegradedMode;
      }
    | undefined;
  /**
   * The community of servers (BRIDGE_REDIS_URL); `alone` says why this server has none. Undefined when the bridge is
   * inert.
   */
  community?: CommunityStatus | { alone: string };
  cachedProfiles: number;
  playersOnline: number;
  playersOnDuty: number;
}

/**
 * The community's part of `bridge status`: what dist/redis.cjs reports, what waits for it here, and what the duty
 * owners still settle on their own after a fault (undefined when this server keeps no duty owners).
 */
export type CommunityStatus = CommunitySnapshot & { held: readonly HeldCall[]; settling?: Settling | undefined };

/** The held calls listed one by one; the rest are counted. */
const HELD_SHOWN = 5;
const seconds = (ms: number) => `${Math.max(0, Math.round(ms / 1000))} s`;
const ms = (value: number | undefined) => (value === undefined ? '-' : `${Math.round(value)} ms`);

function panelLine(panel: NonNullable<StatusSnapshot['panel']>, now: number): string[] {
  const { circuit, latency, apiBase, degradedMode } = panel;
  const latencyText = `latency last ${ms(latency.lastMs)}, p50 ${ms(latency.p50Ms)}, p99 ${ms(latency.p99Ms)}`;
  if (circuit.state === 'open') {
    return [
      `panel     UNREACHABLE at ${apiBase} for ${seconds(now - (circuit.openedAt ?? now))} (last failure: ${circuit.lastFailure ?? 'none'})`,
      `          next probe in ${seconds((circuit.nextProbeAt ?? now) - now)}; going on duty meanwhile: ${degradedMode === 'queue' ? 'allowed from the cached profile, the call queued' : 'refused'}`,
    ];
  }
  if (circuit.consecutiveFailures > 0) {
    return [
      `panel     failing at ${apiBase}: ${circuit.consecutiveFailures} failure(s) in a row (last: ${circuit.lastFailure ?? 'unknown'}); ${latencyText}`,
    ];
  }
  if (latency.lastAnswerAt === undefined) return [`panel     ${apiBase}, not asked yet`];
  return [`panel     reachable at ${apiBase}, last answer ${seconds(now - latency.lastAnswerAt)} ago; ${latencyText}`];
}

function budgetLine({ budget }: NonNullable<StatusSnapshot['panel']>, now: number): string[] {
  const source = budget.limitSource === 'panel' ? "the panel's headers" : 'config.lua (no headers seen yet)';
  const reset =
    budget.resetAt === undefined
      ? 'no window open'
      : `window resets in ${seconds(budget.resetAt - now)}${budget.resetKnown ? '' : ' (assumed)'}`;
  const lines = [
    `budget    ${budget.remaining} of ${budget.limit} requests left, ${reset}; limit ${budget.limit} per ${seconds(budget.windowMs)} from ${source}`,
  ];
  if (budget.blockedUntil !== undefined) {
    lines.push(`          nothing is sent for ${seconds(budget.blockedUntil - now)} (the panel answered 429)`);
  }
  return lines;
}

const INDENT = '          ';

function redisLine({ up, since, reason }: CommunityStatus, now: number): string {
  if (since === undefined) return up ? 'Redis answers' : 'Redis not answered yet: connecting';
  if (up) return `Redis answers, for ${seconds(now - since)}`;
  return `Redis DOES NOT ANSWER, for ${seconds(now - since)} (${reason ?? 'no reason given'}); this server serves its own players`;
}

function communityLines(community: CommunityStatus | { alone: string }, now: number): string[] {
  if ('alone' in community) return [`community none: ${community.alone}; this server runs alone`];
  const { budget, held } = community;
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
    ...(community.settling ? [`${INDENT}${settlingLine(community.settling)}`] : []),
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

/** The lines of `bridge status`. */
export function formatStatus(snapshot: StatusSnapshot): string[] {
  const { panel, now, wallNow } = snapshot;
  const lines = ['bridge status'];
  if (!panel) {
    lines.push('panel     not configured: set BRIDGE_API_BASE and BRIDGE_LEO_API_TOKEN in server.cfg');
  } else {
    const { scheduler, outbox } = panel;
    const queues = Object.entries(scheduler.queued)
      .map(([requestClass, count]) => `${requestClass} ${count}`)
      .join(', ');
    lines.push(
      ...panelLine(panel, now),
      ...budgetLine(panel, now),
      `queues    ${queues}; in flight ${scheduler.inFlight}; sent ${scheduler.sent}, 429s ${scheduler.rateLimited}`,
      `outbox    ${outbox.size} duty call(s) pending` +
        (outbox.size > 0
          ? ` (${outbox.waitingForPanel} waiting for the panel), oldest ${seconds(wallNow - (outbox.oldestCreatedAt ?? wallNow))} old`
          : ''),
    );
  }
  if (snapshot.community) lines.push(...communityLines(snapshot.community, now));
  lines.push(
    `cache     ${snapshot.cachedProfiles} profile(s)`,
    `players   ${snapshot.playersOnline} online, ${snapshot.playersOnDuty} on duty`,
  );
  return lines;
}
