import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { describe, expect, it } from 'vitest';
import { formatValue, histogramSamples, renderExposition } from '../../../server/metrics/bridge-metrics.js';

describe('the Prometheus text exposition', () => {
  it('writes HELP and TYPE once per family, then one line per sample, and ends with a line feed', () => {
    const text = renderExposition([
      { name: 'things_total', help: 'Things counted.', type: 'counter', samples: [{ value: 3 }] },
      {
        name: 'queue_length',
        help: 'Waiting.',
        type: 'gauge',
        samples: [
          { labels: { class: 'join' }, value: 2 },
          { labels: { class: 'duty' }, value: 0 },
        ],
      },
    ]);
    expect(text).toBe(
      [
        '# HELP things_total Things counted.',
        '# TYPE things_total counter',
        'things_total 3',
        '# HELP queue_length Waiting.',
        '# TYPE queue_length gauge',
        'queue_length{class="join"} 2',
        'queue_length{class="duty"} 0',
        '',
      ].join('\n'),
    );
  });

  it('escapes backslash, double quote and line feed in label values, and backslash and line feed in HELP', () => {
    const slug = 'la "swat"\\unit\nB';
    const text = renderExposition([
      {
        name: 'on_duty',
        help: 'Per department\\slug\nsecond line',
        type: 'gauge',
        samples: [{ labels: { department: slug }, value: 1 }],
      },
    ]);
    expect(text).toContain('on_duty{department="la \\"swat\\"\\\\unit\\nB"} 1');
    expect(text).toContain('# HELP on_duty Per department\\\\slug\\nsecond line');
    expect(text.split('\n')).toHaveLength(4);
    const [family] = parsePrometheusTextFormat(text);
    expect(family?.metrics).toEqual([{ labels: { department: slug }, value: '1' }]);
  });

  it('spells the special values as Prometheus reads them', () => {
    expect([NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0.25, 12].map(formatValue)).toEqual([
      'NaN',
      '+Inf',
      '-Inf',
      '0.25',
      '12',
    ]);
  });

  it('writes a histogram as cumulative buckets with +Inf, then _sum and _count', () => {
    const text = renderExposition([
      {
        name: 'latency_seconds',
        help: 'Latency.',
        type: 'histogram',
        samples: histogramSamples({ bounds: [0.05, 0.1], cumulative: [1, 3], sum: 0.4, count: 4 }),
      },
    ]);
    expect(text).toContain('latency_seconds_bucket{le="0.05"} 1\nlatency_seconds_bucket{le="0.1"} 3\n');
    expect(text).toContain('latency_seconds_bucket{le="+Inf"} 4\nlatency_seconds_sum 0.4\nlatency_seconds_count 4\n');
    const [family] = parsePrometheusTextFormat(text);
    expect(family).toMatchObject({ type: 'HISTOGRAM' });
    expect(family?.metrics).toEqual([{ buckets: { '0.05': '1', '0.1': '3', '+Inf': '4' }, sum: '0.4', count: '4' }]);
  });

  it('refuses a metric or label name Prometheus cannot read, instead of serving a broken page', () => {
    expect(() => renderExposition([{ name: 'bad-name', help: '', type: 'gauge', samples: [] }])).toThrow(
      'invalid metric name bad-name',
    );
    expect(() =>
      renderExposition([
        { name: 'ok', help: '', type: 'gauge', samples: [{ labels: { 'bad-label': 'x' }, value: 1 }] },
      ]),
    ).toThrow('invalid label name bad-label');
  });
});
