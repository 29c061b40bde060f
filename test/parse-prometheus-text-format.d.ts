// The parts of parse-prometheus-text-format (which ships no types) the metrics tests use; output as prom2json's.
declare module 'parse-prometheus-text-format' {
  export interface PrometheusSample {
    value: string;
    labels?: Record<string, string>;
  }
  export interface PrometheusHistogramSample {
    /** Upper bound (`le`) → cumulative count. */
    buckets: Record<string, string>;
    sum: string;
    count: string;
    labels?: Record<string, string>;
  }
  export interface PrometheusFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: Array<PrometheusSample | PrometheusHistogramSample>;
  }
  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
