// `bridge status`: what it reads, when it runs, and how it words it. The metrics endpoint reads the same snapshot.
import type { DegradedMode } from '../../../shared/config/index.js';
import type { Community, HeldForRedis } from '../../community/index.js';
import type { Duty, Outbox } from '../../duty/index.js';
import type { BridgeRuntime, PlayerRegistry } from '../../kernel/index.js';
import { REDIS_URL_CONVAR } from '../../kernel/index.js';
import type { CommunityStatus, StatusSnapshot } from '../../metrics/index.js';
import type { PanelStack } from '../../panel/index.js';

export interface StatusSources {
  runtime: Pick<BridgeRuntime, 'now' | 'wallNow'>;
  players: Pick<PlayerRegistry, 'size'>;
  duty: Pick<Duty, 'onDutyPlayers'>;
  /** The panel's part; undefined when the bridge is not configured. */
  panelStatus: () => StatusSnapshot['panel'];
  /** The community's part; undefined when the bridge is not configured. */
  communityStatus: () => StatusSnapshot['community'];
  cachedProfiles: () => number;
}

/** Reads what `bridge status` shows; the metrics endpoint reads the same, so both always agree. */
export const statusReader =
  ({ runtime, players, duty, panelStatus, communityStatus, cachedProfiles }: StatusSources) =>
  (): StatusSnapshot => ({
    now: runtime.now(),
    wallNow: runtime.wallNow(),
    panel: panelStatus(),
    community: communityStatus(),
    cachedProfiles: cachedProfiles(),
    playersOnline: players.size,
    playersOnDuty: duty.onDutyPlayers().length,
  });

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

/** The panel's part of `bridge status`, read when the command runs. */
export const panelStatusOf =
  (stack: PanelStack, outbox: Pick<Outbox, 'stats'>, apiBase: string, degradedMode: DegradedMode) =>
  (): NonNullable<StatusSnapshot['panel']> => ({
    apiBase,
    circuit: stack.breaker.snapshot(),
    latency: stack.latency.snapshot(),
    budget: stack.budget.snapshot(),
    scheduler: stack.scheduler.stats(),
    outbox: outbox.stats(),
    degradedMode,
  });

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
