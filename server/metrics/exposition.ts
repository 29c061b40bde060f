// Prometheus' text exposition format, version 0.0.4 (https://prometheus.io/docs/instrumenting/exposition_formats/).

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
