/**
 * Directory look-ups by id for one message: practitioners, locations and organizations the chart refers to,
 * the assigning authority of chart ids, and the XCN values already built.
 */
import type { Directory, DirectoryPractitioner } from '../../model/directory.js';

/** A look-up by id (see {@link lookupById}). */
export interface IdLookup<T> {
  /** The entry with this id, or undefined. */
  get(id: string): T | undefined;
}

/**
 * Look-up by id in a list, by a map built on first use. The last entry with an id wins (a checked directory
 * has no repeated ids).
 * @param list - the entries
 * @returns the look-up
 * @example lookupById([{ id: 'a' }]).get('a') // { id: 'a' }
 */
export function lookupById<T extends { readonly id: string }>(list: readonly T[]): IdLookup<T> {
  let map: Map<string, T> | undefined;
  return {
    get(id) {
      map ??= new Map(list.map((x) => [x.id, x]));
      return map.get(id);
    },
  };
}

/** Directory look-ups by id, and the assigning authority of chart ids. */
export interface DirectoryIndex {
  /**
   * The assigning authority (HD, encoded: HD-1 only) of chart ids sent as identifiers — a practitioner's chart id
   * in XCN-1, an encounter's in PV1-19 CX-1: the sending application (MSH-3), whose ids they are; `CHART-EXPORT`
   * when MSH-3 is empty (a valued XCN-1 needs an assigning authority or a source table).
   */
  readonly localAuthority: string;
  readonly practitioners: IdLookup<DirectoryPractitioner>;
  /** XCN values already built in this message, by practitioner id (the same author appears in TXA and OBX). */
  readonly xcn: Map<string, string>;
  readonly locations: IdLookup<NonNullable<Directory['locations']>[number]>;
  readonly organizations: IdLookup<NonNullable<Directory['organizations']>[number]>;
}

/**
 * Index a directory (or nothing) for look-ups by id.
 * @param directory - the directory, already checked, or undefined
 * @param localAuthority - the encoded HD-1 of chart ids' assigning authority (MSH-3, else `CHART-EXPORT`)
 * @returns look-ups of practitioners, locations and organizations by id
 * @example indexDirectory(undefined, 'APP').practitioners.get('prac-001') // undefined
 */
export function indexDirectory(directory: Directory | undefined, localAuthority: string): DirectoryIndex {
  return {
    localAuthority,
    practitioners: lookupById(directory?.practitioners ?? []),
    xcn: new Map(),
    locations: lookupById(directory?.locations ?? []),
    organizations: lookupById(directory?.organizations ?? []),
  };
}

