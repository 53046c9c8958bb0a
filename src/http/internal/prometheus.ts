/**
 * Writing the Prometheus text exposition format, version 0.0.4: `# HELP` and `# TYPE` lines, then one
 * sample per line, `name{label="value",…} value`.
 * @see https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format
 */

/** The media type of the format. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * Escape a label value: backslash, double quote and line feed are the three characters the format escapes
 * (`\\`, `\"`, `\n`); everything else, any Unicode, is written as it is (UTF-8).
 * @param value - the label value
 * @returns the text between the quotes
 */
export function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\\' ? '\\\\' : c === '"' ? '\\"' : '\\n'));
}

/**
 * Escape a HELP text: backslash and line feed only (a double quote stays as it is there).
 * @param text - the help text
 * @returns the escaped text
 */
export function escapeHelp(text: string): string {
  return text.replace(/[\\\n]/g, (c) => (c === '\\' ? '\\\\' : '\\n'));
}

/**
 * A sample value as the format writes floats: `+Inf`, `-Inf`, `NaN`, else the shortest decimal that reads
 * back as the same number (JavaScript's `String`, which Go's `ParseFloat` accepts, exponents included).
 * @param value - the value
 * @returns its text
 */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

/** Label names and values, in the order they are written. */
export type Labels = readonly (readonly [name: string, value: string])[];

/**
 * One sample line (without the line feed).
 * @param name - the metric name (`[a-zA-Z_:][a-zA-Z0-9_:]*`, the caller's constant)
 * @param labels - the labels; names are the caller's constants, values are escaped here
 * @param value - the value
 * @returns the line
 */
export function formatSample(name: string, labels: Labels, value: number): string {
  const set = labels.length === 0 ? '' : `{${labels.map(([n, v]) => `${n}="${escapeLabelValue(v)}"`).join(',')}}`;
  return `${name}${set} ${formatValue(value)}`;
}

/**
 * The header lines of a metric family.
 * @param name - the family name
 * @param type - `counter`, `gauge`, `histogram`, `summary` or `untyped`
 * @param help - one line of help
 * @returns the `# HELP` and `# TYPE` lines
 */
export function formatFamilyHeader(name: string, type: 'counter' | 'gauge' | 'histogram', help: string): string[] {
  return [`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} ${type}`];
}
