/**
 * The PHQ-9 and GAD-7 instruments with their LOINC codes, shared by the arbitraries and the demo-chart test.
 */
import type { AnswerOption, AssessmentInstrument, Coding } from '../index.js';

/** The LOINC answer list LL358-3 shared by PHQ-9 and GAD-7 items, with the points each answer scores. */
export const FREQUENCY_OPTIONS: readonly AnswerOption[] = [
  { system: 'loinc', code: 'LA6568-5', display: 'Not at all', score: 0 },
  { system: 'loinc', code: 'LA6569-3', display: 'Several days', score: 1 },
  { system: 'loinc', code: 'LA6570-1', display: 'More than half the days', score: 2 },
  { system: 'loinc', code: 'LA6571-9', display: 'Nearly every day', score: 3 },
];

/** PHQ-9 items: LOINC code and question text, in order. */
export const PHQ9_ITEMS: readonly (readonly [string, string])[] = [
  ['44250-9', 'Little interest or pleasure in doing things'],
  ['44255-8', 'Feeling down, depressed, or hopeless'],
  ['44259-0', 'Trouble falling or staying asleep, or sleeping too much'],
  ['44254-1', 'Feeling tired or having little energy'],
  ['44251-7', 'Poor appetite or overeating'],
  ['44258-2', 'Feeling bad about yourself - or that you are a failure or have let yourself or your family down'],
  ['44252-5', 'Trouble concentrating on things, such as reading the newspaper or watching television'],
  [
    '44253-3',
    'Moving or speaking so slowly that other people could have noticed. Or the opposite - being so fidgety or restless that you have been moving around a lot more than usual',
  ],
  ['44260-8', 'Thoughts that you would be better off dead, or of hurting yourself in some way'],
];

/** GAD-7 items: LOINC code and question text, in order. */
export const GAD7_ITEMS: readonly (readonly [string, string])[] = [
  ['69725-0', 'Feeling nervous, anxious or on edge'],
  ['68509-9', 'Not being able to stop or control worrying'],
  ['69733-4', 'Worrying too much about different things'],
  ['69734-2', 'Trouble relaxing'],
  ['69735-9', 'Being so restless that it is hard to sit still'],
  ['69689-8', 'Becoming easily annoyed or irritable'],
  ['69736-7', 'Feeling afraid as if something awful might happen'],
];

/** PHQ-9 total score code. */
export const PHQ9_TOTAL: Coding = { system: 'loinc', code: '44261-6', display: 'Patient Health Questionnaire 9 item (PHQ-9) total score [Reported]' };
/** GAD-7 total score code. */
export const GAD7_TOTAL: Coding = { system: 'loinc', code: '70274-6', display: 'Generalized anxiety disorder 7 item (GAD-7) total score [Reported.PHQ]' };

function instrument(id: string, title: string, panel: string, prefix: string, items: readonly (readonly [string, string])[]): AssessmentInstrument {
  return {
    id,
    title,
    code: { system: 'loinc', code: panel, display: title },
    url: `http://loinc.org/q/${panel}`,
    items: items.map(([code, text], i) => ({
      linkId: `${prefix}-${i + 1}`,
      text,
      code: { system: 'loinc', code, display: text },
      type: 'choice',
      options: FREQUENCY_OPTIONS.map((o) => ({ ...o })),
    })),
  };
}

/** PHQ-9 (LOINC 44249-1) with its nine item definitions (linkIds `phq9-1`…`phq9-9`). */
export const PHQ9_INSTRUMENT: AssessmentInstrument = instrument('phq-9', 'PHQ-9 quick depression assessment panel', '44249-1', 'phq9', PHQ9_ITEMS);
/** GAD-7 (LOINC 69737-5) with its seven item definitions (linkIds `gad7-1`…`gad7-7`). */
export const GAD7_INSTRUMENT: AssessmentInstrument = instrument('gad-7', 'Generalized anxiety disorder 7 item (GAD-7)', '69737-5', 'gad7', GAD7_ITEMS);

/**
 * The severity band of a PHQ-9 total.
 * @param total - 0–27
 */
export function phq9Severity(total: number): string {
  if (total >= 20) return 'Severe depression';
  if (total >= 15) return 'Moderately severe depression';
  if (total >= 10) return 'Moderate depression';
  if (total >= 5) return 'Mild depression';
  return 'Minimal depression';
}

/**
 * The severity band of a GAD-7 total.
 * @param total - 0–21
 */
export function gad7Severity(total: number): string {
  if (total >= 15) return 'Severe anxiety';
  if (total >= 10) return 'Moderate anxiety';
  if (total >= 5) return 'Mild anxiety';
  return 'Minimal anxiety';
}
