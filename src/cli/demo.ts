/**
 * The demo API keys of the `chart-export` service command. They are public (printed at start and written in
 * the README), so the command loads them only with the embedded demo chart, which is synthetic: a chart file
 * of the user's (`--data`) never gets them.
 */
import type { ApiKeyRateLimit, ApiKeyScope } from '../http/index.js';

/** One demo key: the plain key (public by design), what it is for, and its record. */
export interface DemoKey {
  /** The plain key, sent as `x-api-key`. */
  readonly key: string;
  /** Non-secret key name. */
  readonly id: string;
  /** Partner name. */
  readonly partner: string;
  /** What the key shows. */
  readonly purpose: string;
  /** Scopes. */
  readonly scopes: readonly ApiKeyScope[];
  /** Rate limit. */
  readonly rateLimit: ApiKeyRateLimit;
  /** Revoked (every request answers 401). */
  readonly revoked: boolean;
}

const STANDARD: ApiKeyRateLimit = { limit: 600, windowSeconds: 60 };

/** The five demo keys: both scopes, FHIR only, HL7 only, revoked, and a tiny rate limit to show 429. */
export const DEMO_KEYS: readonly DemoKey[] = Object.freeze([
  {
    key: 'demo-key-full',
    id: 'demo-full',
    partner: 'demo-partner',
    purpose: 'both scopes (fhir:export, hl7:export), 600 requests per 60 s',
    scopes: ['fhir:export', 'hl7:export'],
    rateLimit: STANDARD,
    revoked: false,
  },
  {
    key: 'demo-key-fhir',
    id: 'demo-fhir',
    partner: 'demo-fhir-partner',
    purpose: 'FHIR only (fhir:export): HL7 routes answer 403',
    scopes: ['fhir:export'],
    rateLimit: STANDARD,
    revoked: false,
  },
  {
    key: 'demo-key-hl7',
    id: 'demo-hl7',
    partner: 'demo-hl7-partner',
    purpose: 'HL7 only (hl7:export): FHIR patient routes answer 403',
    scopes: ['hl7:export'],
    rateLimit: STANDARD,
    revoked: false,
  },
  {
    key: 'demo-key-revoked',
    id: 'demo-revoked',
    partner: 'demo-partner',
    purpose: 'revoked: every patient route answers 401',
    scopes: ['fhir:export', 'hl7:export'],
    rateLimit: STANDARD,
    revoked: true,
  },
  {
    key: 'demo-key-limited',
    id: 'demo-limited',
    partner: 'demo-limited-partner',
    purpose: 'both scopes, 3 requests per 60 s: the 4th in a minute answers 429',
    scopes: ['fhir:export', 'hl7:export'],
    rateLimit: { limit: 3, windowSeconds: 60 },
    revoked: false,
  },
]);
