/**
 * Clinical notes.
 */
import fc from 'fast-check';
import {
  CONFIDENTIALITY_CODES,
  NOTE_STATUSES,
  NOTE_TYPES,
  type ClinicalNote,
} from '../index.js';
import { arbIsoDateTimeFull } from './dates.js';
import { arbIdFor } from './chart-ids.js';
import { arbLongText, textFor } from './text-values.js';
import { compact, opt } from './internal/util.js';
import { arbRef, type RecordOptions } from './record-options.js';

/** Options of {@link arbNote}. */
export interface NoteOptions extends RecordOptions {
  /** Let the text sometimes be up to 100 KB (default false). */
  longText?: boolean | undefined;
}

const NOTE_TITLES = ['Progress note', 'Discharge summary', 'Psychiatric consultation', 'History & physical', 'Procedure note'];

/** A SOAP section: present almost always, absent sometimes, and absent first when a failing note shrinks. */
const section = (label: string, ...texts: string[]): fc.Arbitrary<string | undefined> =>
  fc.option(fc.constantFrom(...texts).map((t) => `${label}: ${t}`), { nil: undefined, freq: 12 });

/** Realistic multi-line note text with characters HL7 must escape; at least one section. */
const arbRealisticNoteText: fc.Arbitrary<string> = fc
  .tuple(
    section('Subjective', 'Patient reports improved mood.', 'Low mood for 3 weeks; sleep 5 h/night.', 'Anxiety worse at work.'),
    section('Objective', 'BP 128/82 | HR 72', 'Weight 81.2 kg', 'PHQ-9 = 12 (moderate)'),
    section('Assessment', 'Sertraline 50 mg ^ to 100 mg', 'Continue CBT ~ weekly', 'Labs & ECG ordered'),
    section('Plan', 'Files: C:\\Users\\notes', 'Follow up in 4 weeks.', 'Safety plan reviewed; denies SI/HI.'),
    fc.constantFrom('\n', '\r\n'),
  )
  .map(([s, o, a, p, nl]) => [s, o, a, p].filter((x) => x !== undefined).join(nl) || 'Plan: Follow up in 4 weeks.');

/** A clinical note: type, required title and text, full date-time `authored`, author and encounter references. */
export function arbNote(opts: NoteOptions = {}): fc.Arbitrary<ClinicalNote> {
  const mode = opts.text ?? 'mixed';
  const idMode = opts.ids ?? mode;
  const dangling = opts.danglingReferences === true;
  const text =
    mode === 'realistic'
      ? arbRealisticNoteText
      : fc.oneof(
          // Generated text first, and cross-shrinking: a failing note shrinks to short text, not to a whole template.
          { withCrossShrink: true },
          { arbitrary: textFor(mode, true), weight: 3 },
          { arbitrary: arbRealisticNoteText, weight: 2 },
          ...(opts.longText === true ? [{ arbitrary: arbLongText, weight: 1 }] : []),
        );
  return fc
    .record({
      id: arbIdFor(idMode),
      type: fc.constantFrom(...NOTE_TYPES),
      title: mode === 'realistic' ? fc.constantFrom(...NOTE_TITLES) : fc.oneof(fc.constantFrom(...NOTE_TITLES), textFor(mode, true)),
      status: fc.constantFrom(...NOTE_STATUSES),
      authored: arbIsoDateTimeFull({ years: opts.years ?? (mode === 'realistic' ? 'realistic' : 'mixed') }),
      authorId: opt(arbRef(opts.practitionerIds, dangling, idMode)),
      encounterId: opt(arbRef(opts.encounterIds, dangling, idMode)),
      confidentiality: opt(fc.constantFrom(...CONFIDENTIALITY_CODES)),
      text,
    })
    .map((r): ClinicalNote => compact(r));
}
