import type * as fhir from 'fhir/r4.js';
import type { Payer } from '../model/patient.js';
import { SYSTEM } from './internal/codings.js';
import { toIdentifier } from './internal/datatypes.js';
import type { MapContext } from './internal/context.js';
import { standaloneContext } from './internal/context.js';
import { hasText } from '../internal/text.js';
import { assertValidChartParts, PLACEHOLDER_PATIENT } from './internal/validate.js';

/** `Organization.type` of a payer (a new array each call: resources share no objects). */
export function payerType(): fhir.CodeableConcept[] {
  return [{ coding: [{ system: SYSTEM.organizationType, code: 'pay', display: 'Payer' }] }];
}

/** Payer Organization mapping with a given context. */
export function mapPayerOrganization(payer: Payer, ctx: MapContext): fhir.Organization {
  const out: fhir.Organization = { resourceType: 'Organization', id: ctx.ids.payer(payer) };
  const named = hasText(payer.name);
  if (payer.identifier !== undefined) out.identifier = [toIdentifier(payer.identifier)];
  // org-1: an Organization needs a name or an identifier; a blank name falls back to the chart id.
  else if (!named) out.identifier = [{ value: payer.id }];
  out.active = true;
  out.type = payerType();
  if (named) out.name = payer.name;
  return out;
}

/**
 * Map a coverage's payer to a FHIR R4 Organization of type `pay` (Payer).
 *
 * @param payer - the payer of a chart coverage
 * @returns the Organization; its id is `toFhirId(payer.id)` (in a Bundle, a payer whose id is also a
 *   directory organization's gets a hashed id so the two stay distinct)
 * @throws {ChartValidationError} when the payer fails the chart check (paths start at `payer`)
 * @example toFhirPayerOrganization({ id: 'payer-acme', name: 'Acme Health Plan' }).name // 'Acme Health Plan'
 * @see https://hl7.org/fhir/R4/organization.html
 */
export function toFhirPayerOrganization(payer: Payer): fhir.Organization {
  assertValidChartParts(
    { patient: { ...PLACEHOLDER_PATIENT, coverages: [{ id: 'c', status: 'active', payer }] } },
    [[['patient', 'coverages', 0, 'payer'], ['payer']]],
  );
  return mapPayerOrganization(payer, standaloneContext(PLACEHOLDER_PATIENT.id));
}
