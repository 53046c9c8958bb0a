/**
 * Arbitraries for the public directory: organizations, practitioners, locations.
 */
import fc from 'fast-check';
import {
  LOCATION_STATUSES,
  type Directory,
  type DirectoryLocation,
  type DirectoryOrganization,
  type DirectoryPractitioner,
} from '../index.js';
import { arbCoding, arbIdentifier, arbNpiIdentifier } from './codes.js';
import { ORGANIZATION_ADDRESS_USES, ORGANIZATION_TELECOM_USES, arbAddress, arbHumanName, arbTelecom } from './people.js';
import type { TextMode } from './fragments.js';
import { arbIdFor } from './chart-ids.js';
import { textFor } from './text-values.js';
import { compact, memo, opt, optArray } from './internal/util.js';

/** Options of {@link arbDirectory}. */
export interface DirectoryOptions {
  /** Text mode (default mixed). */
  text?: TextMode | undefined;
  /** Id mode (default: the text mode). */
  ids?: TextMode | undefined;
  /** Maximum organizations (default 3). */
  maxOrganizations?: number | undefined;
  /** Minimum practitioners (default 0). */
  minPractitioners?: number | undefined;
  /** Maximum practitioners (default 4). */
  maxPractitioners?: number | undefined;
  /** Minimum locations (default 0). */
  minLocations?: number | undefined;
  /** Maximum locations (default 3). */
  maxLocations?: number | undefined;
  /**
   * @deprecated No effect, kept so that existing callers compile: every generated directory is valid and
   * mappable (organizations never have a `home` address or contact point, codes are at most 64 characters).
   */
  mappable?: boolean | undefined;
}

const ORG_NAMES = ['Riverside Behavioral Health', 'St. Mary’s Hospital', 'Lakeview Family Practice & Counseling', 'Clínica San José', 'Prairie Home Health'];
const LOCATION_NAMES = ['Riverside Clinic, Suite 200', 'Emergency Department', 'Ward 4B', 'Telehealth (virtual)', 'Room 12 | Annex'];

function name(mode: TextMode, pool: readonly string[]): fc.Arbitrary<string> {
  return mode === 'realistic' ? fc.constantFrom(...pool) : fc.oneof(fc.constantFrom(...pool), textFor(mode, true));
}

/**
 * An organization without `partOfId` (set by {@link arbDirectory}, which knows the other organizations).
 * Its addresses and contact points never have use `home` (FHIR org-2/org-3; the chart check rejects it).
 * @param mode - text mode (default mixed)
 * @param idMode - id mode (default: the text mode)
 * @returns organizations the chart check accepts
 */
export function arbOrganization(mode: TextMode = 'mixed', idMode: TextMode = mode): fc.Arbitrary<DirectoryOrganization> {
  return memo(`org|${mode}|${idMode}`, () => buildOrganization(mode, idMode));
}

function buildOrganization(mode: TextMode, idMode: TextMode): fc.Arbitrary<DirectoryOrganization> {
  return fc
    .record({
      id: arbIdFor(idMode),
      name: name(mode, ORG_NAMES),
      active: opt(fc.boolean()),
      identifiers: optArray(fc.oneof(arbNpiIdentifier, arbIdentifier(mode)), 2),
      telecoms: optArray(arbTelecom(mode, ORGANIZATION_TELECOM_USES), 2),
      addresses: optArray(arbAddress(mode, ORGANIZATION_ADDRESS_USES), 2),
    })
    .map((r): DirectoryOrganization => compact(r));
}

/**
 * A practitioner: 1–2 names, usually an NPI, qualifications as codes (at most 64 characters).
 * @param mode - text mode (default mixed)
 * @param idMode - id mode (default: the text mode)
 * @returns practitioners the chart check accepts
 */
export function arbPractitioner(mode: TextMode = 'mixed', idMode: TextMode = mode): fc.Arbitrary<DirectoryPractitioner> {
  return memo(`prac|${mode}|${idMode}`, () => buildPractitioner(mode, idMode));
}

function buildPractitioner(mode: TextMode, idMode: TextMode): fc.Arbitrary<DirectoryPractitioner> {
  return fc
    .record({
      id: arbIdFor(idMode),
      names: fc.array(arbHumanName(mode), { minLength: 1, maxLength: 2 }),
      active: opt(fc.boolean()),
      identifiers: opt(fc.array(fc.oneof({ arbitrary: arbNpiIdentifier, weight: 3 }, { arbitrary: arbIdentifier(mode), weight: 1 }), { minLength: 1, maxLength: 2 }), 5),
      telecoms: optArray(arbTelecom(mode), 2),
      qualifications: optArray(
        fc.record({ code: arbCoding(['snomed-ct'], mode), display: opt(name(mode, ['MD', 'PhD, Clinical Psychology', 'LCSW', 'PMHNP-BC'])) }).map((q) => compact(q)),
        2,
      ),
    })
    .map((r): DirectoryPractitioner => compact(r));
}

/** A location without `organizationId` (set by {@link arbDirectory}). */
export function arbLocation(mode: TextMode = 'mixed', idMode: TextMode = mode): fc.Arbitrary<DirectoryLocation> {
  return memo(`loc|${mode}|${idMode}`, () => buildLocation(mode, idMode));
}

function buildLocation(mode: TextMode = 'mixed', idMode: TextMode = mode): fc.Arbitrary<DirectoryLocation> {
  return fc
    .record({
      id: arbIdFor(idMode),
      name: name(mode, LOCATION_NAMES),
      status: opt(fc.constantFrom(...LOCATION_STATUSES)),
      description: opt(textFor(mode)),
      address: opt(arbAddress(mode)),
      telecoms: optArray(arbTelecom(mode), 2),
    })
    .map((r): DirectoryLocation => compact(r));
}

/**
 * A directory that passes `checkDirectory` in every mode: ids unique per kind, `partOfId` always naming an
 * earlier organization (no cycles), `location.organizationId` always naming one of its organizations,
 * organizations without `home` addresses or contact points, qualification codes of at most 64 characters.
 * @param opts - text/id mode and sizes
 * @returns directories the chart check accepts
 */
export function arbDirectory(opts: DirectoryOptions = {}): fc.Arbitrary<Directory> {
  const mode = opts.text ?? 'mixed';
  const idMode = opts.ids ?? mode;
  return fc
    .record({
      organizations: fc.uniqueArray(fc.tuple(arbOrganization(mode, idMode), fc.option(fc.nat(), { nil: undefined })), {
        maxLength: opts.maxOrganizations ?? 3,
        selector: ([o]) => o.id,
      }),
      practitioners: fc.uniqueArray(arbPractitioner(mode, idMode), {
        minLength: opts.minPractitioners ?? 0,
        maxLength: Math.max(opts.maxPractitioners ?? 4, opts.minPractitioners ?? 0),
        selector: (p) => p.id,
      }),
      locations: fc.uniqueArray(fc.tuple(arbLocation(mode, idMode), fc.option(fc.nat(), { nil: undefined })), {
        minLength: opts.minLocations ?? 0,
        maxLength: Math.max(opts.maxLocations ?? 3, opts.minLocations ?? 0),
        selector: ([l]) => l.id,
      }),
      keep: fc.record({ organizations: fc.boolean(), practitioners: fc.boolean(), locations: fc.boolean() }),
    })
    .map(({ organizations, practitioners, locations, keep }): Directory => {
      const orgs = organizations.map(([o, parent], i): DirectoryOrganization => {
        const parentOrg = parent === undefined || i === 0 ? undefined : organizations[parent % i]?.[0];
        return parentOrg === undefined ? o : { ...o, partOfId: parentOrg.id };
      });
      const locs = locations.map(([l, org]): DirectoryLocation => {
        const owner = org === undefined || orgs.length === 0 ? undefined : orgs[org % orgs.length];
        return owner === undefined ? l : { ...l, organizationId: owner.id };
      });
      // An empty list and an absent key are both valid; produce both.
      return compact({
        organizations: orgs.length > 0 || keep.organizations ? orgs : undefined,
        practitioners: practitioners.length > 0 || keep.practitioners ? practitioners : undefined,
        locations: locs.length > 0 || keep.locations ? locs : undefined,
      });
    });
}
