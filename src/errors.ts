/**
 * Typed errors of chart-export. Every error has a stable `code` from a closed union and a message that
 * names fields, paths and codes but never a patient value (names, identifiers, dates of birth, text).
 */

/** A path into the input, e.g. `['encounters', 3, 'diagnoses', 0, 'code']`. */
export type IssuePath = readonly (string | number)[];

/** One problem found in chart input. */
export interface ChartIssue {
  /** Where the problem is, as a path into the checked object. */
  readonly path: IssuePath;
  /** What kind of problem it is. */
  readonly code: ChartIssueCode;
  /** A human-readable explanation that names the field and the rule, never the value. */
  readonly message: string;
}

/** The kinds of problems the chart check reports. */
export const CHART_ISSUE_CODES = [
  'required',
  'type',
  'format',
  'enum',
  'range',
  'duplicate',
  'reference',
  'control-character',
] as const;
/** One of {@link CHART_ISSUE_CODES}. */
export type ChartIssueCode = (typeof CHART_ISSUE_CODES)[number];

/** Stable codes of every error class in the package. */
export type ChartExportErrorCode =
  | 'invalid-chart'
  | 'not-found'
  | 'unmappable'
  | 'invalid-argument'
  | 'invalid-date-time'
  | 'hl7-parse';

/**
 * Format an issue path the way the messages print it: `encounters[3].diagnoses[0].code`.
 *
 * @param path - the path to format
 * @returns the dotted/bracketed form; `(root)` for an empty path
 * @throws {InvalidArgumentError} when `path` is not an array of strings and numbers
 * @example formatIssuePath(['encounters', 3, 'code']) // 'encounters[3].code'
 */
export function formatIssuePath(path: IssuePath): string {
  if (!Array.isArray(path)) throw new InvalidArgumentError('path', 'must be an array of strings and numbers');
  let out = '';
  for (let i = 0; i < path.length; i++) {
    const part: unknown = path[i];
    if (typeof part === 'number') out += `[${part}]`;
    else if (typeof part === 'string') out += out === '' ? part : `.${part}`;
    else throw new InvalidArgumentError(`path[${i}]`, 'must be a string or a number');
  }
  return out === '' ? '(root)' : out;
}

/** Base class of every error thrown by chart-export. */
export class ChartExportError extends Error {
  /** The class name, `'ChartExportError'` (in messages and stack traces). */
  override readonly name: string = 'ChartExportError';
  /** A stable machine-readable code. */
  readonly code: ChartExportErrorCode;

  constructor(code: ChartExportErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * The chart input failed the runtime check. `issues` lists every problem with its path.
 * The message lists the paths and rules, never the offending values.
 */
export class ChartValidationError extends ChartExportError {
  /** The class name, `'ChartValidationError'` (in messages and stack traces). */
  override readonly name = 'ChartValidationError';
  /** Every problem found, in input order. */
  readonly issues: readonly ChartIssue[];

  constructor(issues: readonly ChartIssue[], options?: { cause?: unknown }) {
    const head = issues
      .slice(0, 10)
      .map((i) => `${formatIssuePath(i.path)}: ${i.message}`)
      .join('; ');
    const more = issues.length > 10 ? `; and ${issues.length - 10} more` : '';
    super('invalid-chart', `Invalid chart input (${issues.length} problem${issues.length === 1 ? '' : 's'}): ${head}${more}`, options);
    this.issues = issues;
  }
}

/** A record asked for by id (an encounter, note or assessment) is not in the chart. */
export class ChartNotFoundError extends ChartExportError {
  /** The class name, `'ChartNotFoundError'` (in messages and stack traces). */
  override readonly name = 'ChartNotFoundError';
  /** The kind of record that was asked for. */
  readonly recordType: 'patient' | 'encounter' | 'note' | 'assessment';

  constructor(recordType: 'patient' | 'encounter' | 'note' | 'assessment', options?: { cause?: unknown }) {
    super('not-found', `The requested ${recordType} is not in the chart`, options);
    this.recordType = recordType;
  }
}

/**
 * The chart is valid, but a target format needs data the chart does not hold and no documented
 * default applies (for example a procedure with no date and an encounter with no start for PR1-5).
 */
export class MappingError extends ChartExportError {
  /** The class name, `'MappingError'` (in messages and stack traces). */
  override readonly name = 'MappingError';
  /** Where in the input the missing or unmappable data is. */
  readonly path: IssuePath;
  /** The target element, e.g. `PR1-5` or `Coverage.payor`. */
  readonly target: string;

  constructor(path: IssuePath, target: string, reason: string, options?: { cause?: unknown }) {
    super('unmappable', `Cannot fill ${target} from ${formatIssuePath(path)}: ${reason}`, options);
    this.path = path;
    this.target = target;
  }
}

/** An argument passed to a function is not acceptable (an option, a limit, a delimiter set). */
export class InvalidArgumentError extends ChartExportError {
  /** The class name, `'InvalidArgumentError'` (in messages and stack traces). */
  override readonly name = 'InvalidArgumentError';
  /** The argument or option name, e.g. `options.controlId` or `limits.notes.max`. */
  readonly argument: string;
  /** Why it is refused, the rule it breaks (`must be a function`); the message is `Invalid ${argument}: ${reason}`. */
  readonly reason: string;

  constructor(argument: string, reason: string, options?: { cause?: unknown }) {
    super('invalid-argument', `Invalid ${argument}: ${reason}`, options);
    this.argument = argument;
    this.reason = reason;
  }
}

/** A date or date-time string is not in an accepted format (ISO 8601 profile or HL7 DT/DTM/TS). */
export class DateTimeFormatError extends ChartExportError {
  /** The class name, `'DateTimeFormatError'` (in messages and stack traces). */
  override readonly name = 'DateTimeFormatError';
  /** Which format was expected, e.g. `ISO 8601 date-time` or `HL7 DTM`. */
  readonly expected: string;

  constructor(expected: string, reason: string, options?: { cause?: unknown }) {
    super('invalid-date-time', `Not a valid ${expected}: ${reason}`, options);
    this.expected = expected;
  }
}

/**
 * HL7 v2 text could not be parsed. `segmentIndex` is 0-based; `position` names the field, e.g. `PID-5.1`.
 */
export class Hl7ParseError extends ChartExportError {
  /** The class name, `'Hl7ParseError'` (in messages and stack traces). */
  override readonly name = 'Hl7ParseError';
  /** 0-based index of the segment in the message, or -1 when the problem is not in one segment. */
  readonly segmentIndex: number;
  /** The field position (`MSH-2`, `PID-5.1`) or segment id where the problem is, when known. */
  readonly position: string | undefined;

  constructor(segmentIndex: number, position: string | undefined, reason: string, options?: { cause?: unknown }) {
    super('hl7-parse', `HL7 parse error at segment ${segmentIndex}${position ? ` (${position})` : ''}: ${reason}`, options);
    this.segmentIndex = segmentIndex;
    this.position = position;
  }
}
