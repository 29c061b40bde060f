import { THREAD_HOLD_TARGETS } from './report.js';
import type { ClusterResult } from './scenarios/cluster-storm.js';

// The community's join storm (`--only cluster`): its table and targets (issue 25).

const seconds = (value: number | undefined) => (value === undefined ? '-' : `${value.toFixed(1)} s`);
const percent = (value: number | undefined) => (value === undefined ? '-' : `${(value * 100).toFixed(1)}%`);
const ms = (value: number) => `${value.toFixed(1)} ms`;
const counted = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([what, n]) => `${n} ${what}`)
    .join(', ');

export const CLUSTER_RUN_NAMES: Record<ClusterResult['redis'], string> = {
  none: 'no Redis (each bridge alone)',
  up: 'one Redis',
  killed: 'one Redis, killed mid-storm',
};

export function clusterRows(results: readonly ClusterResult[]): { header: string[]; rows: string[][] } {
  return {
    header: [
      'run',
      'requests',
      '429s',
      'budget use (full windows)',
      'profiles p50 / p99 / all',
      'floor',
      'duty changes (toggles refused)',
      'duty calls lost',
      'bridge task p99 / longest',
      'event-loop delay p99 / max',
    ],
    rows: results.map((result) => [
      `${CLUSTER_RUN_NAMES[result.redis]}${result.redisDown ? ` (down ${seconds(result.redisDown.fromS)} to ${seconds(result.redisDown.toS)})` : ''}`,
      String(result.requests),
      String(result.tooManyRequests),
      `${percent(result.budgetUse)} (${result.fullWindows})`,
      result.allProfilesAfterS === undefined
        ? `${result.profilesLoaded} of ${result.players} by the cap (missing: ${counted(result.profilesMissing)})`
        : `${seconds(result.profileP50S)} / ${seconds(result.profileP99S)} / ${seconds(result.allProfilesAfterS)}`,
      seconds(result.floorS),
      [
        String(result.dutyChanges),
        ...(Object.keys(result.togglesRefused).length > 0 ? [`refused: ${counted(result.togglesRefused)}`] : []),
        ...(result.togglesUnanswered > 0 ? [`${result.togglesUnanswered} unanswered`] : []),
      ].join('; '),
      String(result.lostDutyRecords),
      `${ms(result.threadHold.taskP99Ms)} / ${ms(result.threadHold.longestTaskMs)}`,
      `${ms(result.threadHold.processLoopDelay.p99Ms)} / ${ms(result.threadHold.processLoopDelay.maxMs)}`,
    ]),
  };
}

export function clusterTargets(results: readonly ClusterResult[]): Record<string, { value: string; met: boolean }> {
  const shared = results.filter((result) => result.redis === 'up');
  const list = (of: readonly ClusterResult[], show: (result: ClusterResult) => string) =>
    of.map((result) => `${show(result)} (${CLUSTER_RUN_NAMES[result.redis]})`).join('; ') || 'not run';
  return {
    'cluster: 0 × 429 with one Redis': {
      value: list(shared, (result) => String(result.tooManyRequests)),
      met: shared.length > 0 && shared.every((result) => result.tooManyRequests === 0),
    },
    'cluster: budget use >= 95% with one Redis': {
      value: list(shared, (result) => percent(result.budgetUse)),
      met: shared.length > 0 && shared.every((result) => (result.budgetUse ?? 0) >= 0.95),
    },
    'cluster: 0 duty calls lost (every run)': {
      value: list(results, (result) => String(result.lostDutyRecords)),
      met: results.length > 0 && results.every((result) => result.lostDutyRecords === 0),
    },
    [`cluster: longest bridge task <= ${THREAD_HOLD_TARGETS.longestTaskMs} ms (every run)`]: {
      value: list(results, (result) => ms(result.threadHold.longestTaskMs)),
      met: results.length > 0 && results.every((r) => r.threadHold.longestTaskMs <= THREAD_HOLD_TARGETS.longestTaskMs),
    },
  };
}
