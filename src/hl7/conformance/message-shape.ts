/**
 * The shape check of a parsed message handed to `checkHl7Message`.
 */
import { InvalidArgumentError } from '../../errors.js';
import { checkHl7Delimiters } from '../encoding.js';
import type { Hl7Message } from '../parser.js';

/** `true` when `value` is an array whose every element passes `each` (with its index). */
function everyIn(value: unknown, each: (item: unknown, index: number) => boolean): value is readonly unknown[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (!each(value[i], i)) return false;
  return true;
}

const isString = (v: unknown): boolean => typeof v === 'string';
/**
 * A parsed message handed in by the caller is checked for the shape {@link parseHl7Message} gives, so an
 * altered or hand-made one is an argument error rather than a crash inside the checks.
 * @param message - what the caller passed
 * @returns the message, typed
 * @throws InvalidArgumentError naming the first node that is not of that shape
 * @example assertMessageShape(parseHl7Message(text)) // the message
 */
export function assertMessageShape(message: unknown): Hl7Message {
  if (typeof message !== 'object' || message === null) throw new InvalidArgumentError('message', 'must be HL7 text or a parsed message');
  const m = message as { delimiters?: unknown; segments?: unknown };
  if (typeof m.delimiters !== 'object' || m.delimiters === null) throw new InvalidArgumentError('message.delimiters', 'must be a delimiter set');
  try {
    checkHl7Delimiters(m.delimiters as Hl7Message['delimiters']);
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw new InvalidArgumentError(`message.${error.argument}`, 'must be a valid delimiter set', { cause: error });
    throw error;
  }
  if (!Array.isArray(m.segments)) throw new InvalidArgumentError('message.segments', 'must be an array');
  m.segments.forEach((segment: unknown, i: number) => {
    const at = `message.segments[${i}]`;
    if (typeof segment !== 'object' || segment === null) throw new InvalidArgumentError(at, 'must be a segment');
    const s = segment as { id?: unknown; raw?: unknown; fields?: unknown };
    if (typeof s.id !== 'string') throw new InvalidArgumentError(`${at}.id`, 'must be a string');
    if (typeof s.raw !== 'string') throw new InvalidArgumentError(`${at}.raw`, 'must be a string');
    if (!Array.isArray(s.fields)) throw new InvalidArgumentError(`${at}.fields`, 'must be an array');
    for (let f = 0; f < s.fields.length; f++) {
      const ok = everyIn(s.fields[f], (repetition) => everyIn(repetition, (component) => everyIn(component, isString)));
      if (!ok) throw new InvalidArgumentError(`${at}.fields[${f}]`, 'must be repetitions of components of subcomponent strings');
    }
  });
  return message as Hl7Message;
}
