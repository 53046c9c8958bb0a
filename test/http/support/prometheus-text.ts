/**
 * A strict reader of the Prometheus text exposition format 0.0.4, for the metrics tests: it refuses what the
 * format does not allow (an unknown escape, a sample before its family's TYPE, a family declared twice, a
 * duplicated series, a sample of another family, a timestamp we never write, a missing final line feed) and
 * checks the histogram rules (cumulative buckets in increasing `le`, `+Inf` equal to `_count`, `_sum`
 * present). The independent `parse-prometheus-text-format` reads the same text in the tests as a second opinion.
 * @see https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format
 */

/** One sample line. */
export interface ParsedSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** One family: its HELP, TYPE and samples in order. */
export interface ParsedFamily {
  readonly name: string;
  readonly type: string;
  readonly help: string;
  readonly samples: ParsedSample[];
}

const NAME_RE = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME_RE = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const VALUE_RE = /^(?:[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|\+Inf|-Inf|NaN)$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function readValue(text: string, line: string): number {
  if (!VALUE_RE.test(text)) throw new Error(`not a sample value: ${JSON.stringify(text)} in ${JSON.stringify(line)}`);
  return text === '+Inf' ? Number.POSITIVE_INFINITY : text === '-Inf' ? Number.NEGATIVE_INFINITY : Number(text);
}

function unescapeHelp(text: string, line: string): string {
  return text.replace(/\\(.?)/g, (_m, c: string) => {
    if (c === '\\') return '\\';
    if (c === 'n') return '\n';
    throw new Error(`unknown escape in HELP: ${JSON.stringify(line)}`);
  });
}

/** Read `{a="x",b="y"} 1` from `line` at `start`; returns the labels and where the value starts. */
function readLabels(line: string, start: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = start + 1;
  if (line[i] === '}') return { labels, end: i + 1 };
  for (;;) {
    const eq = line.indexOf('=', i);
    if (eq === -1) throw new Error(`label without value: ${JSON.stringify(line)}`);
    const name = line.slice(i, eq);
    if (!LABEL_NAME_RE.test(name)) throw new Error(`bad label name ${JSON.stringify(name)}: ${JSON.stringify(line)}`);
    if (Object.hasOwn(labels, name)) throw new Error(`label ${name} twice: ${JSON.stringify(line)}`);
    if (line[eq + 1] !== '"') throw new Error(`label value not quoted: ${JSON.stringify(line)}`);
    let value = '';
    let j = eq + 2;
    for (;; j++) {
      const c = line[j];
      if (c === undefined) throw new Error(`unterminated label value: ${JSON.stringify(line)}`);
      if (c === '"') break;
      if (c === '\\') {
        const next = line[++j];
        if (next === '\\') value += '\\';
        else if (next === '"') value += '"';
        else if (next === 'n') value += '\n';
        else throw new Error(`unknown escape \\${next ?? ''} in a label value: ${JSON.stringify(line)}`);
      } else {
        value += c;
      }
    }
    labels[name] = value;
    i = j + 1;
    if (line[i] === '}') return { labels, end: i + 1 };
    if (line[i] !== ',') throw new Error(`expected , or } after a label: ${JSON.stringify(line)}`);
    i++;
  }
}

function seriesKey(name: string, labels: Readonly<Record<string, string>>): string {
  return `${name}${JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))}`;
}

/**
 * Parse and check an exposition.
 * @param text - the exposition
 * @returns its families in order
 * @throws Error naming the first rule broken
 */
export function parseExposition(text: string): ParsedFamily[] {
  if (!text.endsWith('\n')) throw new Error('the exposition must end with a line feed');
  const families: ParsedFamily[] = [];
  const byName = new Map<string, ParsedFamily>();
  const helps = new Map<string, string>();
  const series = new Set<string>();
  let current: ParsedFamily | undefined;
  for (const line of text.slice(0, -1).split('\n')) {
    if (line.startsWith('# HELP ')) {
      const rest = line.slice(7);
      const space = rest.indexOf(' ');
      const name = space === -1 ? rest : rest.slice(0, space);
      if (!NAME_RE.test(name) || helps.has(name)) throw new Error(`bad or repeated HELP: ${JSON.stringify(line)}`);
      helps.set(name, space === -1 ? '' : unescapeHelp(rest.slice(space + 1), line));
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const [name = '', type = '', extra] = line.slice(7).split(' ');
      if (!NAME_RE.test(name) || !TYPES.has(type) || extra !== undefined) throw new Error(`bad TYPE line: ${JSON.stringify(line)}`);
      if (byName.has(name)) throw new Error(`family ${name} declared twice`);
      current = { name, type, help: helps.get(name) ?? '', samples: [] };
      byName.set(name, current);
      families.push(current);
      continue;
    }
    if (line.startsWith('#')) continue;
    if (line === '') throw new Error('an empty line');
    const brace = line.indexOf('{');
    const space = line.indexOf(' ');
    const nameEnd = brace !== -1 && brace < space ? brace : space;
    if (nameEnd <= 0) throw new Error(`not a sample: ${JSON.stringify(line)}`);
    const name = line.slice(0, nameEnd);
    if (!NAME_RE.test(name)) throw new Error(`bad metric name: ${JSON.stringify(line)}`);
    let labels: Record<string, string> = {};
    let at = nameEnd;
    if (line[at] === '{') ({ labels, end: at } = readLabels(line, at));
    if (line[at] !== ' ') throw new Error(`expected one space before the value: ${JSON.stringify(line)}`);
    const value = readValue(line.slice(at + 1), line);
    if (current === undefined) throw new Error(`sample before any TYPE: ${JSON.stringify(line)}`);
    const suffixes = current.type === 'histogram' ? ['_bucket', '_sum', '_count'] : [''];
    if (!suffixes.some((s) => name === `${current?.name}${s}`)) throw new Error(`sample ${name} outside its family (${current.name})`);
    const key = seriesKey(name, labels);
    if (series.has(key)) throw new Error(`duplicated series ${key}`);
    series.add(key);
    current.samples.push({ name, labels, value });
  }
  for (const family of families) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

function checkHistogram(family: ParsedFamily): void {
  const groups = new Map<string, { buckets: [number, number][]; sum?: number; count?: number }>();
  for (const s of family.samples) {
    const { le, ...rest } = s.labels;
    const key = seriesKey('', rest);
    const group = groups.get(key) ?? { buckets: [] };
    groups.set(key, group);
    if (s.name.endsWith('_bucket')) {
      if (le === undefined) throw new Error(`${family.name}: a bucket without le`);
      group.buckets.push([readValue(le, le), s.value]);
    } else if (le !== undefined) {
      throw new Error(`${family.name}: le on ${s.name}`);
    } else if (s.name.endsWith('_sum')) {
      group.sum = s.value;
    } else {
      group.count = s.value;
    }
  }
  for (const [key, g] of groups) {
    const last = g.buckets.at(-1);
    if (last === undefined || last[0] !== Number.POSITIVE_INFINITY) throw new Error(`${family.name}${key}: no +Inf bucket last`);
    for (let i = 1; i < g.buckets.length; i++) {
      const [prevLe, prevN] = g.buckets[i - 1] as [number, number];
      const [le, n] = g.buckets[i] as [number, number];
      if (!(le > prevLe) || n < prevN) throw new Error(`${family.name}${key}: buckets not increasing and cumulative`);
    }
    if (g.count !== last[1] || g.sum === undefined) throw new Error(`${family.name}${key}: _count differs from the +Inf bucket, or no _sum`);
  }
}
