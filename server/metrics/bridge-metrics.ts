// The bridge's metric families, read from what `bridge status` reads, in Prometheus' text exposition format, version
// 0.0.4 (https://prometheus.io/docs/instrumenting/exposition_formats/): the format first, then the families.
import type { DegradedMode } from '../../shared/config/index.js';
import type { OutboxStats } from '../duty/index.js';
import type { BudgetSnapshot, CircuitSnapshot, LatencyStats, SchedulerStats } from '../panel/index.js';

export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type MetricType = 'counter' | 'gauge' | 'histogram';

export type Labels = Readonly<Record<string, string>>;

export interface Sample {
  /** Appended to the family's name: `_bucket`, `_sum`, `_count` of a histogram; none for the rest. */
  suffix?: string;
  labels?: Labels;
  value: number;
}

export interface MetricFamily {
  /** A counter's name ends in `_total`. */
  name: string;
  help: string;
  type: MetricType;
  samples: readonly Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

// HELP text escapes backslash and line feed; a label value also escapes the double quote.
const escapeHelp = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const escapeLabelValue = (text: string) => escapeHelp(text).replace(/"/g, '\\"');

/** Go's ParseFloat spellings of the special values; every finite number as JavaScript writes it. */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

function formatLabels(labels: Labels | undefined): string {
  const entries = Object.entries(labels ?? {});
  if (entries.length === 0) return '';
  for (const [name] of entries) {
    if (!LABEL_NAME.test(name) || name.startsWith('__')) throw new Error(`invalid label name ${name}`);
  }
  return `{${entries.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(',')}}`;
}

/** The families as one exposition: HELP and TYPE once per family, then its samples, one per line. */
export function renderExposition(families: readonly MetricFamily[]): string {
  const lines: string[] = [];
  for (const family of families) {
    if (!METRIC_NAME.test(family.name)) throw new Error(`invalid metric name ${family.name}`);
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    for (const sample of family.samples) {
      lines.push(`${family.name}${sample.suffix ?? ''}${formatLabels(sample.labels)} ${formatValue(sample.value)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export interface HistogramCounts {
  /** Upper bounds, ascending, in the metric's unit. */
  bounds: readonly number[];
  /** Observations at or below each bound (cumulative). */
  cumulative: readonly number[];
  sum: number;
  count: number;
}

/** A histogram's samples: a `_bucket` per bound and `+Inf` (= count), then `_sum` and `_count`. */
export function histogramSamples({ bounds, cumulative, sum, count }: HistogramCounts, labels: Labels = {}): Sample[] {
  return [
    ...bounds.map((bound, i) => ({
      suffix: '_bucket',
      labels: { ...labels, le: formatValue(bound) },
      value: cumulative[i] ?? 0,
    })),
    { suffix: '_bucket', labels: { ...labels, le: '+Inf' }, value: count },
    { suffix: '_sum', labels, value: sum },
    { suffix: '_count', labels, value: count },
  ];
}

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

/** What the metrics show: the figures of `bridge status`, and who is on duty per department. */
export interface MetricsReading {
  status: StatusSnapshot;
  /** Department slug → players on duty for it (each player counted once, in the department of their duty). */
  onDutyByDepartment: Readonly<Record<string, number>>;
}

const gauge = (name: string, help: string, samples: readonly Sample[]): MetricFamily => ({
  name,
  help,
  type: 'gauge',
  samples,
});
const counter = (name: string, help: string, value: number): MetricFamily => ({
  name,
  help,
  type: 'counter',
  samples: [{ value }],
});
const one = (value: number): Sample[] => [{ value }];
const flag = (on: boolean): Sample[] => one(on ? 1 : 0);

function panelFamilies(panel: NonNullable<StatusSnapshot['panel']>, now: number): MetricFamily[] {
  const { scheduler, budget, outbox, circuit, latency } = panel;
  return [
    counter(
      'bridge_panel_requests_sent_total',
      'Requests sent to the panel since the resource started.',
      scheduler.sent,
    ),
    counter(
      'bridge_panel_rate_limited_total',
      'Panel answers 429 (Too Many Requests) since the resource started; each was queued again, not lost.',
      scheduler.rateLimited,
    ),
    gauge(
      'bridge_panel_requests_in_flight',
      'Requests sent to the panel and not answered yet.',
      one(scheduler.inFlight),
    ),
    gauge(
      'bridge_panel_queue_length',
      'Requests waiting for the panel budget, per request class (duty, join, waiting, member-refresh, other-refresh).',
      Object.entries(scheduler.queued).map(([requestClass, value]) => ({ labels: { class: requestClass }, value })),
    ),
    gauge('bridge_panel_budget_remaining', 'Requests left in the current rate-limit window.', one(budget.remaining)),
    gauge('bridge_panel_budget_limit', 'Requests allowed per rate-limit window.', one(budget.limit)),
    gauge(
      'bridge_panel_budget_blocked',
      '1 while nothing is sent because the panel answered 429, else 0.',
      flag(budget.blockedUntil !== undefined && budget.blockedUntil > now),
    ),
    gauge(
      'bridge_outbox_calls',
      'Duty calls on their way to the panel (kept in KVP across restarts).',
      one(outbox.size),
    ),
    gauge(
      'bridge_outbox_waiting_for_panel',
      'Duty calls held back because the panel is unreachable.',
      one(outbox.waitingForPanel),
    ),
    gauge(
      'bridge_panel_circuit_open',
      '1 while the panel is considered unreachable (the circuit breaker is open), else 0.',
      flag(circuit.state === 'open'),
    ),
    gauge(
      'bridge_panel_consecutive_failures',
      'Panel requests failed in a row (0 once the panel answers).',
      one(circuit.consecutiveFailures),
    ),
    {
      name: 'bridge_panel_latency_seconds',
      help: "Time the panel took to answer the bridge's requests.",
      type: 'histogram',
      samples: histogramSamples({
        bounds: latency.histogram.bucketsMs.map((ms) => ms / 1000),
        cumulative: latency.histogram.cumulative,
        sum: latency.histogram.sumMs / 1000,
        count: latency.histogram.count,
      }),
    },
  ];
}

/** The bridge's metric families, read at one moment. Panel figures are absent while the bridge is not configured. */
export function bridgeMetrics({ status, onDutyByDepartment }: MetricsReading): MetricFamily[] {
  return [
    gauge(
      'bridge_panel_configured',
      '1 when the panel convars are set and the bridge talks to the panel, 0 while it is inert.',
      flag(status.panel !== undefined),
    ),
    ...(status.panel ? panelFamilies(status.panel, status.now) : []),
    gauge('bridge_cached_profiles', 'Player profiles held in the cache.', one(status.cachedProfiles)),
    gauge('bridge_players_online', 'Players connected to the server.', one(status.playersOnline)),
    gauge(
      'bridge_players_on_duty',
      'Players on duty, per department slug; a department seen since the resource started (in a profile or on duty) ' +
        'stays at 0 when nobody is on duty there.',
      Object.entries(onDutyByDepartment).map(([department, value]) => ({ labels: { department }, value })),
    ),
    gauge(
      'bridge_players_on_duty_all_departments',
      'Players on duty in any department; always present, 0 when nobody is on duty.',
      one(Object.values(onDutyByDepartment).reduce((sum, count) => sum + count, 0)),
    ),
  ];
}
