import { InvalidArgumentError } from '../errors.js';

/**
 * Refuse a record id argument that is not a string, by its name: a number or `undefined` would otherwise read
 * as a record that is not found.
 * @param name - the argument's name (`noteId`)
 * @param value - the argument
 * @throws {InvalidArgumentError} when `value` is not a string
 */
export function requireIdArgument(name: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') throw new InvalidArgumentError(name, 'must be a string');
}
