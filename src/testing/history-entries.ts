/**
 * Medical-history entries.
 */
import fc from 'fast-check';
import {
  CLINICAL_STATUSES,
  VERIFICATION_STATUSES,
  type MedicalHistoryEntry,
} from '../index.js';
import { arbCoding } from './codes.js';
import { arbIsoDateTime } from './dates.js';
import { arbOrderedPair } from './periods.js';
import { arbIdFor } from './chart-ids.js';
import { textFor } from './text-values.js';
import { compact, memo, opt } from './internal/util.js';
import { type RecordOptions } from './record-options.js';

/**
 * A medical-history entry (ICD-10-CM or SNOMED CT): active, or resolved/inactive/remission with an
 * abatement after the onset most of the time.
 */
export function arbMedicalHistoryEntry(opts: RecordOptions = {}): fc.Arbitrary<MedicalHistoryEntry> {
  return memo(`history|${opts.text}|${opts.ids}|${opts.years}`, () => buildMedicalHistoryEntry(opts));
}

function buildMedicalHistoryEntry(opts: RecordOptions = {}): fc.Arbitrary<MedicalHistoryEntry> {
  const mode = opts.text ?? 'mixed';
  const years = opts.years ?? (mode === 'realistic' ? 'realistic' : 'mixed');
  return fc
    .record({
      id: arbIdFor(opts.ids ?? mode),
      code: arbCoding(['icd-10-cm', 'snomed-ct'], mode),
      clinicalStatus: fc.constantFrom(...CLINICAL_STATUSES),
      verificationStatus: opt(fc.constantFrom(...VERIFICATION_STATUSES)),
      dates: arbOrderedPair({ years }),
      which: fc.record({ onset: fc.boolean(), abatement: fc.boolean() }),
      recordedDate: opt(arbIsoDateTime({ years })),
      note: opt(textFor(mode), 2),
    })
    .map(({ dates, which, ...r }): MedicalHistoryEntry => {
      const ended = r.clinicalStatus === 'resolved' || r.clinicalStatus === 'inactive' || r.clinicalStatus === 'remission';
      return compact({
        ...r,
        onset: which.onset ? dates[0] : undefined,
        abatement: ended || which.abatement ? dates[1] : undefined,
      });
    });
}
