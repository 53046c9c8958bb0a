import type * as fhir from 'fhir/r4.js';
import type { Coverage, Patient } from '../model/patient.js';
import { SUBSCRIBER_RELATIONSHIP_DISPLAY, SYSTEM } from './internal/codings.js';
import { toPeriod } from './internal/datatypes.js';
import type { MapContext } from './internal/context.js';
import { standaloneContext } from './internal/context.js';
import { hasText } from '../internal/text.js';
import { assertValidChartParts } from './internal/validate.js';

function coverageClass(code: 'plan' | 'group', display: string, part: { id: string; name?: string | undefined }): fhir.CoverageClass {
  const out: fhir.CoverageClass = {
    type: { coding: [{ system: SYSTEM.coverageClass, code, display }] },
    value: part.id,
  };
  if (part.name !== undefined && hasText(part.name)) out.name = part.name;
  return out;
}

/** Coverage mapping with a given context. */
export function mapCoverage(coverage: Coverage, ctx: MapContext): fhir.Coverage {
  // Keys in R4 element order: status, subscriber, subscriberId, beneficiary, relationship, period, payor, class, order.
  const out: fhir.Coverage = { resourceType: 'Coverage', id: ctx.ids.coverage(coverage), status: coverage.status } as fhir.Coverage;
  const relationship = coverage.relationship ?? 'self';
  if (relationship === 'self') out.subscriber = ctx.patientRef();
  if (coverage.memberId !== undefined && hasText(coverage.memberId)) out.subscriberId = coverage.memberId;
  out.beneficiary = ctx.patientRef();
  out.relationship = {
    coding: [{ system: SYSTEM.subscriberRelationship, code: relationship, display: SUBSCRIBER_RELATIONSHIP_DISPLAY[relationship] }],
  };
  const period = toPeriod(coverage.period);
  if (period !== undefined) out.period = period;
  out.payor = [ctx.localRef('Organization', ctx.ids.payer(coverage.payer))];
  const classes: fhir.CoverageClass[] = [];
  if (coverage.group !== undefined) classes.push(coverageClass('group', 'Group', coverage.group));
  if (coverage.plan !== undefined) classes.push(coverageClass('plan', 'Plan', coverage.plan));
  if (classes.length > 0) out.class = classes;
  // The chart check keeps the order within positiveInt (1…2147483647).
  if (coverage.order !== undefined) out.order = coverage.order;
  return out;
}

/**
 * Map a chart coverage to a FHIR R4 Coverage of the patient.
 *
 * The id is derived from the patient's and the coverage's ids (`<patient id>-<coverage id>`, or the
 * hashed form). `payor` references the payer Organization (`toFhirPayerOrganization`); `subscriber` is the
 * patient when the relationship is `self` (the default); plan and group become `class` entries.
 *
 * @param coverage - the chart coverage
 * @param patient - the patient it belongs to (the beneficiary)
 * @returns the Coverage
 * @throws {ChartValidationError} when the input fails the chart check (paths start at `coverage` or `patient`)
 * @example toFhirCoverage(patient.coverages[0], patient).payor // [{ reference: 'Organization/payer-acme' }]
 * @see https://hl7.org/fhir/R4/coverage.html
 */
export function toFhirCoverage(coverage: Coverage, patient: Patient): fhir.Coverage {
  assertValidChartParts({ patient: { ...patient, coverages: [coverage] } }, [[['patient', 'coverages', 0], ['coverage']]]);
  return mapCoverage(coverage, standaloneContext(patient.id));
}
