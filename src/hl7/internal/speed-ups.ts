/**
 * Every speed-up of the HL7 layer, in one place: caches, precomputed tables and fast paths. Each export has a
 * plain equivalent that gives the same result (written in its TSDoc), so removing a speed-up means replacing
 * its body by that equivalent (speed-ups whose gain could not be shown were removed that way: the long-text
 * escape scanner, non-ASCII noting for MSH-18, empty-field templates, the short-list id look-up; the
 * separator runs, dropped then, came back with a gain shown on the 2 KB note). The gain of each one, measured A/B at a realistic load, is in
 * docs/performance.md ("HL7 speed-ups and their measured gain"); `bench/hl7-speed-ups/ab.mjs` measures it again
 * by building the library once with every speed-up and once per speed-up with it replaced.
 *
 * Apart from the caches and the random-byte pool below (which only remember results that never change, or
 * hand out random bytes) and the control-id counter in messages/control-id.ts, nothing in src/hl7 keeps state
 * between calls: what one message needs travels in its `MessageContext`.
 */

/**
 * The XCN of a practitioner is built once per message (the same author appears in TXA, OBX, PV1…).
 * Plain equivalent: `build()`.
 * @param built - the message's XCN values by practitioner id
 * @param practitionerId - the practitioner
 * @param build - builds the XCN
 * @returns the XCN
 * @example cachedXcn(new Map(), 'prac-001', () => 'prac-001^^^^^^^^APP') // 'prac-001^^^^^^^^APP'
 */
export function cachedXcn(built: Map<string, string>, practitionerId: string, build: () => string): string {
  const known = built.get(practitionerId);
  if (known !== undefined) return known;
  const value = build();
  built.set(practitionerId, value);
  return value;
}

/**
 * The v2.5.1 definitions the conformance check reads (segment fields, data-type components, compiled message
 * structures) are parsed from their compact text once, on first use. Plain equivalent: `compute()`.
 * @param cache - the parsed definitions by key
 * @param key - the segment id, data type or structure name
 * @param compute - parses the definition; undefined when there is none
 * @returns the parsed definition, or undefined
 * @example cachedDefinition(new Map(), 'PID', () => parse('PID'))
 */
export function cachedDefinition<T>(cache: Map<string, T>, key: string, compute: () => T | undefined): T | undefined {
  const known = cache.get(key);
  if (known !== undefined) return known;
  const value = compute();
  if (value !== undefined) cache.set(key, value);
  return value;
}

/** Recently formatted date-times and instants: a pure function's results, so caching changes nothing but speed. */
const recentDateTimes = new Map<string, string>();
const recentInstants = new Map<string, string>();
const RECENT_MAX = 256;

function recent(cache: Map<string, string>, iso: string, format: () => string): string {
  const known = cache.get(iso);
  if (known !== undefined) return known;
  const value = format();
  if (cache.size >= RECENT_MAX) cache.clear();
  cache.set(iso, value);
  return value;
}

/**
 * A message repeats the same few date-times (authored, period start): the last 256 results of
 * `formatHl7DateTime` are remembered. Plain equivalent: `format()`.
 * @param iso - the chart date or date-time
 * @param format - formats it (throws for a value outside the chart profile, which is not remembered)
 * @returns the HL7 DT / DTM text
 * @example cachedDateTime('1984-07-02', () => '19840702') // '19840702'
 */
export function cachedDateTime(iso: string, format: () => string): string {
  return recent(recentDateTimes, iso, format);
}

/**
 * The header time (`now`) of consecutive messages is often the same: the last 256 results of
 * `formatHl7Instant` are remembered. Plain equivalent: `format()`.
 * @param iso - the ISO 8601 instant
 * @param format - formats it
 * @returns `YYYYMMDDHHMMSS±ZZZZ`
 * @example cachedInstant('2026-03-01T09:30:00Z', () => '20260301093000+0000') // '20260301093000+0000'
 */
export function cachedInstant(iso: string, format: () => string): string {
  return recent(recentInstants, iso, format);
}

/**
 * Free text shortened to a component's length is read only as far as the component can hold: of a value longer
 * than `max + 1` characters, only its first `max + 1` are escaped (and, for lists of names or address lines,
 * joined), since escaping never shortens a character and cutting to `max` reads no further (a name of 1 MiB
 * costs what a name of 51 characters costs). Plain equivalent: `false` (the whole value is escaped, then cut).
 */
export const KEPT_PREFIX_ONLY = true;

/**
 * The part of free text that shortening it to `max` characters after escaping can keep: its first `max + 1`
 * characters when it is longer (one more than can be kept, so the cut still sees that the text goes on), else
 * the text. With {@link KEPT_PREFIX_ONLY} off, the text.
 * @param text - chart text
 * @param max - the most characters to keep after escaping
 * @returns a prefix of `text` whose escaped form, cut to `max`, is the escaped text cut to `max`
 * @example keptPrefix('x'.repeat(1000), 50).length // 51
 */
export function keptPrefix(text: string, max: number): string {
  return KEPT_PREFIX_ONLY && text.length > max + 1 ? text.slice(0, max + 1) : text;
}

/**
 * `escapeHl7` with the standard delimiters (the default) uses the builders' escaping, which needs no compiled
 * delimiter set. Plain equivalent: `false` (every delimiter set goes through its compiled form).
 */
export const STANDARD_DELIMITERS_FAST_PATH = true;

/** Compiled delimiter sets by the object they were compiled from. */
const compiledDelimiters = new WeakMap<object, unknown>();

/**
 * A delimiter set is checked and compiled (escape table, scanning expression) once per object, and again only
 * when the object was changed since. Plain equivalent: `compile()`.
 * @param delimiters - the delimiter set as given
 * @param isCurrent - whether a compiled form still matches the object
 * @param compile - checks and compiles the set
 * @returns the compiled set
 * @example cachedDelimiterSet(DEFAULT_HL7_DELIMITERS, () => true, () => compileNew(DEFAULT_HL7_DELIMITERS))
 */
export function cachedDelimiterSet<T>(delimiters: object, isCurrent: (compiled: T) => boolean, compile: () => T): T {
  const known = compiledDelimiters.get(delimiters) as T | undefined;
  if (known !== undefined && isCurrent(known)) return known;
  const compiled = compile();
  compiledDelimiters.set(delimiters, compiled);
  return compiled;
}

/**
 * Random bytes drawn 512 at a time for control ids: one `getRandomValues` call per id costs microseconds, a
 * read from the pool nothing, and the bytes are as random. Filled on first use, not at load (some edge
 * runtimes refuse random values outside a request). Plain equivalent: one `getRandomValues` of one byte.
 */
const randomPool = new Uint8Array(512);
let randomNext = randomPool.length;

/**
 * Fill `bytes` with random values: `crypto.getRandomValues` where there is one, else `Math.random`.
 * @param bytes - the array to fill
 * @returns nothing
 * @example fillRandom(new Uint8Array(4))
 */
export function fillRandom(bytes: Uint8Array): void {
  const cryptoObj = (globalThis as { crypto?: { getRandomValues?: (a: Uint8Array) => Uint8Array } }).crypto;
  if (typeof cryptoObj?.getRandomValues === 'function') cryptoObj.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
}

/**
 * One random byte, from the pool.
 * @returns 0 … 255
 * @example randomByte() // 137
 */
export function randomByte(): number {
  if (randomNext === randomPool.length) {
    fillRandom(randomPool);
    randomNext = 0;
  }
  return randomPool[randomNext++] as number;
}

/** Runs of 0 … 63 field and component separators. */
const PIPES: readonly string[] = Array.from({ length: 64 }, (_, k) => '|'.repeat(k));
const CARETS: readonly string[] = Array.from({ length: 64 }, (_, k) => '^'.repeat(k));

/**
 * A run of empty fields or components is written as one string made once, not one `repeat` per run (PV1 has
 * runs of 11 and 24 empty fields). Plain equivalent: `sep.repeat(count)`.
 * @param sep - the separator
 * @param count - how many
 * @returns `count` separators
 * @example separatorRun('|', 3) // '|||'
 */
export function separatorRun(sep: string, count: number): string {
  if (count < 64) {
    if (sep === '|') return PIPES[count] as string;
    if (sep === '^') return CARETS[count] as string;
  }
  return sep.repeat(count);
}
