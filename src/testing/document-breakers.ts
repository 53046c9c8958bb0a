/**
 * Breakers of a chart document's references and directory, each in exactly one place.
 */
import fc from 'fast-check';
import type { ChartDocument } from '../index.js';
import { copy, firstEncounter, prepend, unusedId, validAssessment, type Broken, type DocumentBreaker } from './breakers.js';
import { arbChartDocument, type DocumentOptions } from './charts.js';

/** Ways to break a valid document in exactly one place (reference and uniqueness rules). */
export const DOCUMENT_BREAKERS: readonly DocumentBreaker[] = [
  {
    name: 'encounter location missing from the directory',
    apply(doc) {
      const d = copy(doc);
      const chart = d.patients[0];
      if (chart === undefined) throw new Error('documents have at least one patient');
      const [i, enc] = firstEncounter(chart);
      enc.locationId = unusedId(d.directory?.locations, 'loc-nowhere');
      return { value: d, path: `patients[0].encounters[${i}].locationId` };
    },
  },
  {
    name: 'note author missing from the directory',
    apply(doc) {
      const d = copy(doc);
      const chart = d.patients[0];
      if (chart === undefined) throw new Error('documents have at least one patient');
      chart.notes = prepend(chart.notes, { id: 'note-broken', type: 'progress-note', title: 'Progress note', status: 'final', authored: '2024-03-01T10:00:00Z', text: 'x', authorId: unusedId(d.directory?.practitioners, 'prac-nobody') });
      return { value: d, path: 'patients[0].notes[0].authorId' };
    },
  },
  {
    name: "assessment encounter missing from the patient's chart",
    apply(doc) {
      const d = copy(doc);
      const chart = d.patients[0];
      if (chart === undefined) throw new Error('documents have at least one patient');
      chart.assessments = prepend(chart.assessments, validAssessment({ encounterId: unusedId(chart.encounters, 'enc-elsewhere') }));
      return { value: d, path: 'patients[0].assessments[0].encounterId' };
    },
  },
  {
    name: 'duplicate patient id',
    apply(doc) {
      const d = copy(doc);
      const first = d.patients[0];
      if (first === undefined) throw new Error('documents have at least one patient');
      d.patients.push(copy(first));
      return { value: d, path: `patients[${d.patients.length - 1}].patient.id` };
    },
  },
  {
    name: 'location organization missing from the directory',
    apply(doc) {
      const d = copy(doc);
      d.directory ??= {};
      d.directory.locations ??= [];
      d.directory.locations.push({ id: unusedId(d.directory.locations, 'loc-orphan'), name: 'Orphan', organizationId: unusedId(d.directory.organizations, 'org-nowhere') });
      return { value: d, path: `directory.locations[${d.directory.locations.length - 1}].organizationId` };
    },
  },
  {
    name: 'organization address with use home',
    apply(doc) {
      const d = copy(doc);
      d.directory ??= {};
      d.directory.organizations ??= [];
      d.directory.organizations.push({ id: unusedId(d.directory.organizations, 'org-home'), name: 'Home office', addresses: [{ use: 'work', city: 'Springfield' }, { use: 'home', city: 'Springfield' }] });
      return { value: d, path: `directory.organizations[${d.directory.organizations.length - 1}].addresses[1].use` };
    },
  },
  {
    name: 'organization contact point with use home',
    apply(doc) {
      const d = copy(doc);
      d.directory ??= {};
      d.directory.organizations ??= [];
      d.directory.organizations.push({ id: unusedId(d.directory.organizations, 'org-home'), name: 'Home office', telecoms: [{ system: 'phone', value: '555-0100', use: 'home' }] });
      return { value: d, path: `directory.organizations[${d.directory.organizations.length - 1}].telecoms[0].use` };
    },
  },
  {
    name: 'practitioner qualification code of 65 characters',
    apply(doc) {
      const d = copy(doc);
      d.directory ??= {};
      d.directory.practitioners ??= [];
      d.directory.practitioners.push({ id: unusedId(d.directory.practitioners, 'prac-long'), names: [{ family: 'Long' }], qualifications: [{ code: { system: 'snomed-ct', code: '1'.repeat(65) } }] });
      return { value: d, path: `directory.practitioners[${d.directory.practitioners.length - 1}].qualifications[0].code.code` };
    },
  },
  {
    name: 'location id with a line feed',
    apply(doc) {
      const d = copy(doc);
      d.directory ??= {};
      d.directory.locations ??= [];
      d.directory.locations.push({ id: 'loc\n1', name: 'Ward 4B' });
      return { value: d, path: `directory.locations[${d.directory.locations.length - 1}].id` };
    },
  },
  {
    name: 'duplicate practitioner id in the directory',
    apply(doc) {
      const d = copy(doc);
      d.directory ??= {};
      d.directory.practitioners ??= [];
      d.directory.practitioners.push({ id: 'prac-twin', names: [{ family: 'Twin' }] }, { id: 'prac-twin', names: [{ family: 'Twin' }] });
      return { value: d, path: `directory.practitioners[${d.directory.practitioners.length - 1}].id` };
    },
  },
];

/**
 * A valid document (from {@link arbChartDocument}) broken in exactly one place by one of
 * {@link DOCUMENT_BREAKERS}.
 * @param opts - document options
 */
export function arbBrokenChartDocument(opts: DocumentOptions = {}): fc.Arbitrary<Broken<ChartDocument>> {
  return fc.tuple(arbChartDocument(opts), fc.constantFrom(...DOCUMENT_BREAKERS)).map(([doc, breaker]) => ({ ...breaker.apply(doc), name: breaker.name }));
}

