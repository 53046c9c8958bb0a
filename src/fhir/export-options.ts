import type { Directory } from '../model/directory.js';

/**
 * Options of every FHIR Bundle builder. Everything time- or id-dependent comes from here, so the same
 * chart and the same options give byte-identical JSON.
 */
export interface FhirExportOptions {
  /**
   * `Bundle.timestamp`: an ISO 8601 instant with seconds and offset. Default: the current time,
   * `new Date().toISOString()`.
   * @example '2026-03-01T15:00:00Z'
   */
  now?: string | undefined;
  /**
   * `Bundle.id`, a FHIR id. Default: a UUID (version 8) derived from the Bundle's type, timestamp and
   * entries, so the same export at the same `now` has the same id.
   */
  bundleId?: string | undefined;
  /**
   * The service base URL (`{base_url}`), absolute `http:` or `https:`. When set, every `fullUrl` is the
   * absolute `${baseUrl}/Type/id` that FHIR R4 asks for; by default it is the relative `Type/id`. References stay `Type/id` either way and resolve against the entry's fullUrl.
   * @example 'https://api.example.org/fhir'
   */
  baseUrl?: string | undefined;
  /**
   * Omit `Bundle.total` on Bundles other than `searchset` (FHIR invariant bdl-1 allows `total` only on
   * searchset and history Bundles). Default false: `total` (the number of entries) is on every Bundle.
   */
  strictBundleTotal?: boolean | undefined;
  /**
   * The directory of practitioners, locations and organizations that chart records refer to by id.
   * Referenced directory records become entries of patient-scoped Bundles; without it (or for ids it does
   * not hold) the references are logical (identifier + display).
   */
  directory?: Directory | undefined;
}

/**
 * Record-count limits of the patient Bundle; each caps its own kind, newest first. `undefined` means no
 * cap; 0 leaves the kind out.
 */
export interface PatientBundleLimits {
  /** Encounters (newest `period.start` first), each with its Conditions and Procedures. */
  encounters?: number | undefined;
  /** Notes (newest `authored` first), each a Composition + DocumentReference. */
  notes?: number | undefined;
  /** Assessments (newest `authored` first), each a QuestionnaireResponse (+ its Questionnaire). */
  assessments?: number | undefined;
  /** Medical-history Conditions (newest `recordedDate`, then `onset`, first). */
  medicalHistory?: number | undefined;
}

/** Options of {@link buildFhirPatientBundle}. */
export type FhirPatientBundleOptions = FhirExportOptions & {
  /** Record-count limits; see {@link PatientBundleLimits}. */
  limits?: PatientBundleLimits | undefined;
};

/** A `Bundle.link` of a searchset page: its relation (`self`, `next`, …) and absolute URL. */
export interface FhirDirectoryLink {
  /** The link relation, e.g. `self` or `next` (https://hl7.org/fhir/R4/bundle.html#search-result). */
  relation: string;
  /** The absolute `http:` or `https:` URL of that page. */
  url: string;
}

/** Options of {@link buildFhirDirectoryBundle}. */
export type FhirDirectoryBundleOptions = FhirExportOptions & {
  /** At most this many records (in directory order); `undefined` means all. */
  limit?: number | undefined;
  /** `Bundle.link` of this page (e.g. `self` and `next`), in this order; none by default. */
  link?: readonly FhirDirectoryLink[] | undefined;
};
