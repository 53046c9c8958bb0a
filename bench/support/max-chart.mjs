/**
 * A patient at the accepted maximum of every text field (issue 18): one record of each kind, a directory, and
 * every text value that is not an id, a date or an enumerated code as long as the chart check accepts — about
 * 1 MiB (FHIR's string limit) for names, addresses, display texts, reasons and titles, less where a field has
 * its own limit (note text in UTF-8 bytes, OBX-5 and NTE-3 after escaping, contact values, identifiers).
 *
 * The maximum of each field is found by the check itself, not written down here: each field is set, alone, to
 * the longest prefix of a hostile filler (delimiters, escape look-alikes, a tab, line breaks, non-ASCII and
 * non-BMP text) that the check accepts, found by bisection over whole filler units (so no surrogate pair is
 * split). A field whose value the check refuses for another reason than its length (a code, an enumerated
 * value) keeps its value.
 */

/** The record every field starts from: one record of each kind (as test/support/hostile-corpus.ts). */
export function baseMaxInput() {
  const directory = {
    organizations: [
      { id: 'org-1', name: 'Riverside Health System', active: true },
      { id: 'org-2', name: 'Riverside Behavioral Health', active: true, partOfId: 'org-1' },
    ],
    practitioners: [{ id: 'prac-1', names: [{ family: 'Okafor', given: ['Adaeze'], prefix: ['Dr.'], suffix: ['MD'], text: 'Dr. Adaeze Okafor' }], identifiers: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1003000126', type: 'NPI' }] }],
    locations: [{ id: 'loc-1', name: 'Riverside Clinic, Suite 200', status: 'active', organizationId: 'org-2' }],
  };
  const chart = {
    patient: {
      id: 'pat-max',
      identifiers: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-000123', type: 'MR' }],
      names: [
        { use: 'official', family: 'Quintero', given: ['Ana', 'María'], prefix: ['Ms.'], suffix: ['Jr.'], text: 'Ana María Quintero' },
        { use: 'usual', family: 'Quintero', given: ['Ana'], text: 'Ana Quintero' },
      ],
      birthDate: '1984-07-02',
      gender: 'female',
      addresses: [{ use: 'home', lines: ['12 Elm St', 'Apt 4'], city: 'Springfield', district: 'Sangamon', state: 'IL', postalCode: '62701', country: 'US' }],
      telecoms: [
        { system: 'phone', value: '+1 217 555 0142', use: 'mobile' },
        { system: 'email', value: 'ana@example.org' },
      ],
      coverages: [
        {
          id: 'cov-1',
          status: 'active',
          payer: { id: 'payer-1', name: 'Aetna', identifier: { system: 'urn:oid:2.16.840.1.113883.6.300', value: '60054' } },
          memberId: 'XZ123456',
          relationship: 'self',
          order: 1,
          period: { start: '2025-01-01', end: '2026-12-31' },
        },
      ],
    },
    encounters: [
      {
        id: 'enc-1',
        status: 'finished',
        class: 'AMB',
        period: { start: '2026-03-01T09:30:00-05:00', end: '2026-03-01T10:30:00-05:00' },
        locationId: 'loc-1',
        participants: [{ role: 'ATND', practitionerId: 'prac-1' }],
        reason: 'Follow-up for low mood',
        diagnoses: [{ id: 'dx-1', code: { system: 'icd-10-cm', code: 'F32.1', display: 'Major depressive disorder, single episode, moderate' }, rank: 1 }],
        procedures: [{ id: 'proc-1', code: { system: 'cpt', code: '90834', display: 'Psychotherapy, 45 minutes' }, status: 'completed', performed: '2026-03-01T09:35:00-05:00', performerId: 'prac-1' }],
      },
    ],
    notes: [
      {
        id: 'note-1',
        type: 'progress-note',
        title: 'Progress note',
        status: 'final',
        authored: '2026-03-01T10:15:00-05:00',
        encounterId: 'enc-1',
        authorId: 'prac-1',
        text: 'Subjective: feels better.\nObjective: calm, oriented.',
      },
    ],
    assessments: [
      {
        id: 'asmt-1',
        instrument: { id: 'free-instrument', name: 'Free instrument', title: 'A free-form instrument' },
        status: 'completed',
        authored: '2026-03-01T09:40:00-05:00',
        encounterId: 'enc-1',
        authorId: 'prac-1',
        answers: [
          { linkId: 'q-string', value: { type: 'string', value: 'Sleeping about five hours' } },
          { linkId: 'q-decimal', value: { type: 'decimal', value: 4.5 } },
          { linkId: 'q-coding', value: { type: 'coding', value: { system: 'loinc', code: 'LA6569-3', display: 'Several days', score: 1 } } },
        ],
        score: { value: 3, code: { system: 'loinc', code: '44261-6', display: 'Patient Health Questionnaire 9 item (PHQ-9) total score [Reported]' }, interpretation: 'Minimal depression' },
      },
    ],
    medicalHistory: [{ id: 'hx-1', code: { system: 'icd-10-cm', code: 'I10', display: 'Essential (primary) hypertension' }, clinicalStatus: 'active', recordedDate: '2021-09-30', onset: '2015-01-01' }],
  };
  return { chart, directory };
}

/** One unit of the filler: delimiters, escape look-alikes, a tab, CR LF, LF, non-ASCII and a non-BMP character. */
const UNIT = 'Zoë|Ana^B&C~D\\E\\F\\ 😀\tx\r\ny\n中文 ';
const MIB = 1_048_576;

const isIdKey = (key) => typeof key === 'string' && (key === 'id' || key.endsWith('Id'));
const isFixedKey = (key) => typeof key === 'string' && /^(birthDate|recordedDate|onset|abatement|performed|authored|start|end|system|code|type|status|use|class|role|gender|clinicalStatus|relationship|language|linkId)$/.test(key);

function leaves(value, path = []) {
  if (typeof value === 'string') return [path];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, Array.isArray(value) ? Number(k) : k]));
}
const getAt = (root, path) => path.reduce((node, k) => node[k], root);
function setAt(root, path, value) {
  const parent = getAt(root, path.slice(0, -1));
  parent[path[path.length - 1]] = value;
}

/**
 * The max patient: `{ chart, directory, fields }` where `fields` counts the values set beyond their base.
 * @param lib - the library under test (`validatePatientChart`, `checkPatientChart`, `checkDirectory`)
 * @param keep - which fields (by path) to set to their maximum; by default every one
 */
export function maxPatient(lib, keep = () => true) {
  const { chart, directory } = baseMaxInput();
  const filler = UNIT.repeat(Math.ceil(MIB / UNIT.length));
  const maxUnits = Math.floor(MIB / UNIT.length);
  const found = [];
  for (const [root, check] of [
    [chart, (c) => lib.checkPatientChart(c)],
    [directory, (d) => lib.checkDirectory(d)],
  ]) {
    for (const path of leaves(root)) {
      const key = path[path.length - 1];
      const keyName = typeof key === 'number' ? path[path.length - 2] : key;
      if (isIdKey(keyName) || isFixedKey(keyName) || !keep(path)) continue;
      const original = getAt(root, path);
      const accepts = (units) => {
        setAt(root, path, filler.slice(0, units * UNIT.length));
        return check(root).length === 0;
      };
      if (!accepts(1)) {
        setAt(root, path, original);
        continue;
      }
      // The largest number of whole units the check accepts, then the longest accepted tail of one more unit.
      let lo = 1;
      let hi = maxUnits + 1;
      if (accepts(maxUnits)) lo = maxUnits;
      else {
        while (hi - lo > 1) {
          const mid = (lo + hi) >> 1;
          if (accepts(mid)) lo = mid;
          else hi = mid;
        }
      }
      let best = filler.slice(0, lo * UNIT.length);
      for (let extra = 1; extra < UNIT.length; extra++) {
        const candidate = filler.slice(0, lo * UNIT.length + extra);
        if (candidate.length > MIB) break; // no field longer than FHIR's string limit, even one the check does not bound
        setAt(root, path, candidate);
        if (check(root).length === 0) best = candidate;
      }
      setAt(root, path, original);
      found.push([root, path, best]);
    }
  }
  // Each maximum was found with the other fields at their base value (a check of one long value at a time);
  // now every field takes its maximum.
  for (const [root, path, best] of found) setAt(root, path, best);
  lib.validatePatientChart(chart);
  lib.validateDirectory(directory);
  return { chart, directory, fields: found.length };
}
