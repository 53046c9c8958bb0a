/**
 * The chart-wide id plan (src/fhir/id-plan.ts) on its own, without the chart check that runs before it in every
 * builder: a collision of primary FHIR ids is a MappingError naming the record, and derived ids are planned in chart
 * order whatever the order they are asked in.
 */
import { describe, expect, it } from 'vitest';
import { MappingError } from '../../src/errors.js';
import { buildIdPlan } from '../../src/fhir/id-plan.js';
import { mapChartId } from '../../src/fhir/ids.js';
import type { PatientChart } from '../../src/model/chart.js';

const patient = { id: 'pat-1', identifiers: [], names: [] };

/** The MappingError `fn` throws. */
function mappingError(fn: () => unknown): MappingError {
  try {
    fn();
  } catch (error) {
    if (error instanceof MappingError) return error;
    throw error;
  }
  throw new Error('no MappingError');
}

describe('buildIdPlan', () => {
  // A chart id that is not a FHIR id maps to a hashed id; a second record whose chart id is that hashed id collides.
  const hashed = mapChartId('enc_1');

  it.each([
    ['encounters', { encounters: [{ id: 'enc_1' }, { id: hashed }] }, ['encounters', 1, 'id'], 'Encounter.id'],
    ['notes', { notes: [{ id: 'enc_1' }, { id: hashed }] }, ['notes', 1, 'id'], 'Composition.id'],
    ['medical history', { medicalHistory: [{ id: 'enc_1' }, { id: hashed }] }, ['medicalHistory', 1, 'id'], 'Condition.id'],
    ['assessments', { assessments: [{ id: 'enc_1', instrument: { id: 'i' } }, { id: hashed, instrument: { id: 'i' } }] }, ['assessments', 1, 'id'], 'QuestionnaireResponse.id'],
    ['instruments', { assessments: [{ id: 'a', instrument: { id: 'enc_1' } }, { id: 'b', instrument: { id: hashed } }] }, ['assessments', 1, 'instrument', 'id'], 'Questionnaire.id'],
  ])('should name the %s record whose FHIR id another one already has', (_kind, records, path, target) => {
    const error = mappingError(() => buildIdPlan({ patient, ...records } as unknown as PatientChart, undefined));
    expect(error.path).toEqual(path);
    expect(error.target).toBe(target);
  });

  it('should name the directory record whose FHIR id another one already has', () => {
    const directory = { practitioners: [{ id: 'enc_1', names: [] }, { id: hashed, names: [] }] };
    const error = mappingError(() => buildIdPlan({ patient } as unknown as PatientChart, directory as never));
    expect(error.path).toEqual(['directory', 'practitioners', 1, 'id']);
    expect(error.target).toBe('Practitioner.id');
  });

  it('should plan derived ids in chart order, whatever order they are asked in', () => {
    // Two encounters whose first diagnoses derive the same candidate id: the first in chart order keeps it.
    const first = { id: 'e', diagnoses: [{ id: 'x-dx' }] };
    const second = { id: 'e-x', diagnoses: [{ id: 'dx' }] };
    const chart = { patient, encounters: [first, second] } as unknown as PatientChart;
    const asked = buildIdPlan(chart, undefined);
    const late = asked.diagnosis(second as never, 0);
    const early = asked.diagnosis(first as never, 0);
    expect(early).toBe('e-x-dx');
    expect(late).not.toBe(early);
    expect(late).toMatch(/^e-x-dx-[0-9a-f]{32}$/);
    expect(buildIdPlan(chart, undefined).diagnosis(second as never, 0)).toBe(late);
  });

  it('should refuse a record that is not part of the planned chart', () => {
    const plan = buildIdPlan({ patient, encounters: [{ id: 'e', diagnoses: [{ id: 'd' }] }] } as unknown as PatientChart, undefined);
    const error = mappingError(() => plan.diagnosis({ id: 'other', diagnoses: [{ id: 'd' }] } as never, 0));
    expect(error.target).toBe('Condition.id');
  });
});
