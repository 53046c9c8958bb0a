/**
 * Regression tests for argument checks found by test/package/api-robustness.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { toFhirQuestionnaire, type AssessmentInstrument } from '../../src/index.js';
import { CHART } from '../hl7/fixtures.js';

describe('toFhirQuestionnaire', () => {
  const instrument = CHART.assessments?.[0]?.instrument as AssessmentInstrument;

  it.each([null, 5, 'score', []])('should throw InvalidArgumentError for score %s', (score) => {
    expect(() => toFhirQuestionnaire(instrument, score as never)).toThrow(expect.objectContaining({ argument: 'score' }));
  });

  it('should still map with and without a score', () => {
    expect(toFhirQuestionnaire(instrument).resourceType).toBe('Questionnaire');
    expect(toFhirQuestionnaire(instrument, { code: { system: 'loinc', code: '55758-7' } }).item?.some((i) => i.linkId === 'total-score')).toBe(true);
  });
});
