/**
 * Breakers of a chart's assessments: answers that contradict their item definitions, and bad numbers.
 */

import { copy, prepend, validAssessment, type ChartBreaker } from './breakers.js';

/** Ways to break a valid chart's assessments, each in exactly one place. */
export const ASSESSMENT_BREAKERS: readonly ChartBreaker[] = [
  {
    name: 'answer linkId with a tab',
    apply(chart) {
      const c = copy(chart);
      c.assessments = prepend(c.assessments, validAssessment({ instrument: { id: 'free', title: 'Free' }, answers: [{ linkId: 'q\t1', value: { type: 'boolean', value: true } }] }));
      return { value: c, path: 'assessments[0].answers[0].linkId' };
    },
  },
  {
    name: 'non-finite score',
    apply(chart) {
      const c = copy(chart);
      c.assessments = prepend(c.assessments, validAssessment({ score: { value: Number.POSITIVE_INFINITY } }));
      return { value: c, path: 'assessments[0].score.value' };
    },
  },
  {
    name: 'answer type that does not fit the item type',
    apply(chart) {
      const c = copy(chart);
      c.assessments = prepend(c.assessments, validAssessment({ answers: [{ linkId: 'phq9-1', value: { type: 'string', value: 'often' } }] }));
      return { value: c, path: 'assessments[0].answers[0].value.type' };
    },
  },
  {
    name: 'answer to an item the instrument does not define',
    apply(chart) {
      const c = copy(chart);
      c.assessments = prepend(c.assessments, validAssessment({ answers: [{ linkId: 'phq9-10', value: { type: 'coding', value: { system: 'loinc', code: 'LA6568-5' } } }] }));
      return { value: c, path: 'assessments[0].answers[0].linkId' };
    },
  },
  {
    name: 'duplicate answer linkId',
    apply(chart) {
      const c = copy(chart);
      const answer = { linkId: 'phq9-1', value: { type: 'coding' as const, value: { system: 'loinc' as const, code: 'LA6568-5', score: 0 } } };
      c.assessments = prepend(c.assessments, validAssessment({ answers: [answer, answer] }));
      return { value: c, path: 'assessments[0].answers[1].linkId' };
    },
  },
  {
    name: 'coded answer outside its item options',
    apply(chart) {
      const c = copy(chart);
      c.assessments = prepend(c.assessments, validAssessment({ answers: [{ linkId: 'phq9-1', value: { type: 'coding', value: { system: 'loinc', code: 'LA-not-an-option' } } }] }));
      return { value: c, path: 'assessments[0].answers[0].value' };
    },
  },
  {
    name: 'coded answer with an option code from another system',
    apply(chart) {
      const c = copy(chart);
      c.assessments = prepend(c.assessments, validAssessment({ answers: [{ linkId: 'phq9-1', value: { type: 'coding', value: { system: 'snomed-ct', code: 'LA6568-5', display: 'Not at all' } } }] }));
      return { value: c, path: 'assessments[0].answers[0].value' };
    },
  },
  {
    name: 'answers out of item order',
    apply(chart) {
      const c = copy(chart);
      const answer = (linkId: string) => ({ linkId, value: { type: 'coding' as const, value: { system: 'loinc' as const, code: 'LA6568-5', score: 0 } } });
      c.assessments = prepend(c.assessments, validAssessment({ status: 'in-progress', answers: [answer('phq9-2'), answer('phq9-1')] }));
      return { value: c, path: 'assessments[0].answers[1].linkId' };
    },
  },
  {
    name: 'answer options on an item that is not a choice',
    apply(chart) {
      const c = copy(chart);
      const instrument = { id: 'broken-options', title: 'Broken', items: [{ linkId: 'q1', text: 'Comment', type: 'string' as const, options: [{ system: 'loinc' as const, code: 'LA6568-5' }] }] };
      c.assessments = prepend(c.assessments, validAssessment({ instrument }));
      return { value: c, path: 'assessments[0].instrument.items[0].options' };
    },
  },
  {
    name: 'integer answer beyond 32 bits to an integer item',
    apply(chart) {
      const c = copy(chart);
      const instrument = { id: 'broken-integer', title: 'Broken', items: [{ linkId: 'q1', text: 'Count', type: 'integer' as const }] };
      c.assessments = prepend(c.assessments, validAssessment({ instrument, answers: [{ linkId: 'q1', value: { type: 'integer', value: 2 ** 31 } }] }));
      return { value: c, path: 'assessments[0].answers[0].value.value' };
    },
  },
  {
    name: 'integer answer that is not an integer',
    apply(chart) {
      const c = copy(chart);
      c.assessments = prepend(c.assessments, validAssessment({ instrument: { id: 'free', title: 'Free' }, answers: [{ linkId: 'a', value: { type: 'integer', value: 1.5 } }] }));
      return { value: c, path: 'assessments[0].answers[0].value.value' };
    },
  },
];
