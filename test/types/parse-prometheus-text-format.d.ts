/** Types of the dev dependency `parse-prometheus-text-format`, which ships none. */
declare module 'parse-prometheus-text-format' {
  /** One sample (counter, gauge, untyped) or one histogram series (`buckets`, `count`, `sum`). */
  export interface ParsedMetric {
    readonly value?: string;
    readonly labels?: Readonly<Record<string, string>>;
    readonly buckets?: Readonly<Record<string, string>>;
    readonly count?: string;
    readonly sum?: string;
  }
  /** One metric family. */
  export interface ParsedFamily {
    readonly name: string;
    readonly help: string;
    readonly type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    readonly metrics: readonly ParsedMetric[];
  }
  /** Parse the Prometheus text format; throws on an invalid line. */
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}
