import type { DegradedMode } from '../../shared/config/index.js';
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
 * The community's part of `bridge status`, as dist/redis.cjs words it (community-status-lines.ts): what Redis does,
 * and what waits for it here.
 */
export interface CommunityStatus {
  lines: readonly string[];
}

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

function communityLines(community: CommunityStatus | { alone: string }): readonly string[] {
  return 'alone' in community ? [`community none: ${community.alone}; this server runs alone`] : community.lines;
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
  if (snapshot.community) lines.push(...communityLines(snapshot.community));
  lines.push(
    `cache     ${snapshot.cachedProfiles} profile(s)`,
    `players   ${snapshot.playersOnline} online, ${snapshot.playersOnDuty} on duty`,
  );
  return lines;
}
