/**
 * The chart check's rules of an assessment: its instrument (item definitions), its answers against those
 * definitions, its score; and of instruments shared by several assessments.
 */
import { checkLastUpdated } from './last-updated-rules.js';
import { at, type Checker, type Obj, type Path, uriProblem } from './checker.js';
import { ASSESSMENT_ITEM_TYPES, ASSESSMENT_STATUSES } from '../model/assessment.js';
import { HL7_NTE3_MAX, HL7_OBX5_MAX, HL7_SET_ID_LIMITS, hl7EscapedLength, INT32_MAX, INT32_MIN } from '../model/limits.js';
import { countUpTo } from './speed-ups.js';

/** Which answer value types fit which item type. */
const ANSWER_FITS: Record<string, readonly string[]> = {
  string: ['string'],
  text: ['string'],
  integer: ['integer'],
  decimal: ['decimal', 'integer'],
  boolean: ['boolean'],
  choice: ['coding'],
  date: ['date'],
  dateTime: ['dateTime'],
};

/** The answer value types an item type takes; `undefined` for anything that is no item type. */
function fitsOf(itemType: unknown): readonly string[] | undefined {
  // Own keys only: an item type such as `constructor` must not find Object.prototype's members.
  return typeof itemType === 'string' && Object.hasOwn(ANSWER_FITS, itemType) ? ANSWER_FITS[itemType] : undefined;
}

function checkAnswerOption(c: Checker, value: unknown, path: Path): void {
  c.coding(value, path, true);
  if (value !== null && typeof value === 'object') c.number((value as Obj)['score'], at(path, 'score'), false, 'finite');
}

/** What the answers of an assessment are checked against: one item definition. */
interface ItemRule {
  /** The item type as given (an unknown one is reported at the item, and its answers are not compared). */
  readonly type: string;
  /** Position in the instrument's items: answers follow this order. */
  readonly index: number;
  /** The item's answer options when it has at least one (else any coding fits a choice item). */
  readonly options: readonly unknown[] | undefined;
}

/**
 * Whether a coding is one of the options, compared the way FHIR compares a `valueCoding` with
 * `Questionnaire.item.answerOption.valueCoding`: same system and same code. The display is not compared
 * (it is a label, and may be localized or abbreviated), nor the score.
 * @see https://hl7.org/fhir/R4/questionnaire-definitions.html#Questionnaire.item.answerOption
 */
function isOption(coding: Obj, options: readonly unknown[]): boolean {
  const system = coding['system'];
  const code = coding['code'];
  for (const option of options) {
    if (option !== null && typeof option === 'object' && (option as Obj)['system'] === system && (option as Obj)['code'] === code) return true;
  }
  return false;
}

/** Check an instrument at `ip`; returns the rules its item definitions set for the answers. */
function checkInstrument(c: Checker, instrument: unknown, ip: Path): Map<string, ItemRule> {
  const itemRules = new Map<string, ItemRule>();
  if (!c.object(instrument, ip, true)) return itemRules;
  c.id(instrument['id'], at(ip, 'id'));
  c.text(instrument['title'], at(ip, 'title'), true);
  c.coding(instrument['code'], at(ip, 'code'), false);
  const url = instrument['url'];
  if (c.text(url, at(ip, 'url'), false)) {
    // The url is the Questionnaire's canonical URL, which a response cites: in a canonical reference `|`
    // starts a version and `#` a fragment, so a url holding either would cite another Questionnaire.
    const problem = uriProblem(url) ?? (/[|#]/.test(url) ? 'must not contain | or # (a canonical reference reads them as version and fragment)' : undefined);
    if (problem !== undefined) c.add(at(ip, 'url'), 'format', problem);
  }
  const items = instrument['items'];
  let index = 0;
  c.each(items, at(ip, 'items'), false, (v, p) => {
    const itemIndex = index++;
    if (!c.object(v, p, true)) return;
    c.id(v['linkId'], at(p, 'linkId'));
    c.text(v['text'], at(p, 'text'), true);
    c.coding(v['code'], at(p, 'code'), false);
    const type = v['type'];
    c.enumValue(type, ASSESSMENT_ITEM_TYPES, at(p, 'type'), true);
    const options = v['options'];
    c.each(options, at(p, 'options'), false, (o, op) => checkAnswerOption(c, o, op));
    const hasOptions = Array.isArray(options) && options.length > 0;
    // Options are codings: on another item type no answer could be one of them (and FHIR que-5 forbids
    // answerOption on boolean and text items), so the Questionnaire would refuse every answer.
    if (hasOptions && type !== 'choice' && fitsOf(type) !== undefined) {
      c.add(at(p, 'options'), 'type', 'must be empty unless the item type is choice (answer options are codings)');
    }
    const linkId = v['linkId'];
    if (typeof linkId === 'string' && typeof type === 'string' && !itemRules.has(linkId)) {
      itemRules.set(linkId, { type, index: itemIndex, options: hasOptions ? options : undefined });
    }
  });
  c.unique(items, 'linkId', at(ip, 'items'), 'item');
  return itemRules;
}

/**
 * Text HL7 sends whole (a string answer in OBX-5; a score interpretation in OBX-5 and NTE-3): at most `max`
 * characters once escaped, `field` naming where.
 */
function checkHl7Text(c: Checker, value: unknown, path: Path, required: boolean, max: number, field: string): void {
  if (c.text(value, path, required) && value.length > max / 7 && hl7EscapedLength(value, true, countUpTo(max)) > max) {
    c.add(path, 'range', `must be at most ${max} characters once escaped for HL7 (${field}; the same limit in every message)`);
  }
}

/** Check an answer's value on its own (no item definition); false when its type is no answer type. */
function checkAnswerValue(c: Checker, type: unknown, inner: unknown, vp: Path): boolean {
  switch (type) {
    case 'string':
      checkHl7Text(c, inner, at(vp, 'value'), true, HL7_OBX5_MAX, 'OBX-5');
      return true;
    case 'integer':
      c.nmNumber(inner, at(vp, 'value'), true, 'integer');
      return true;
    case 'decimal':
      c.nmNumber(inner, at(vp, 'value'), true, 'finite');
      return true;
    case 'boolean':
      c.boolean(inner, at(vp, 'value'), true);
      return true;
    case 'coding':
      checkAnswerOption(c, inner, at(vp, 'value'));
      return true;
    case 'date':
      c.date(inner, at(vp, 'value'), true, true);
      return true;
    case 'dateTime':
      c.date(inner, at(vp, 'value'), true, false);
      return true;
    default:
      c.add(at(vp, 'type'), 'enum', 'must be one of string, integer, decimal, boolean, coding, date, dateTime');
      return false;
  }
}

/**
 * Check an answer's value against its item definition.
 * @param wellFormed - whether the value passed its own check (only a well-formed coding is compared with options)
 */
function checkAnswerFits(c: Checker, item: ItemRule, type: string, inner: unknown, vp: Path, wellFormed: boolean): void {
  const fits = fitsOf(item.type);
  if (fits === undefined) return; // the item type itself is reported
  if (!fits.includes(type)) {
    c.add(at(vp, 'type'), 'type', `does not fit the item type ${item.type}`);
    return;
  }
  if (type === 'coding' && item.options !== undefined) {
    // Only a well-formed coding is compared; a malformed one is already reported where it breaks.
    if (wellFormed && !isOption(inner as Obj, item.options)) {
      c.add(vp, 'enum', "must be one of the item's answer options (same system and code)");
    }
  } else if (type === 'integer' && item.type === 'integer' && Number.isSafeInteger(inner) && ((inner as number) < INT32_MIN || (inner as number) > INT32_MAX)) {
    // An integer item's answer is a FHIR valueInteger, which is 32-bit; a decimal item takes any integer.
    c.add(at(vp, 'value'), 'range', `must be between ${INT32_MIN} and ${INT32_MAX} (FHIR integer) for an integer item`);
  }
}

/**
 * Check the answers at `path`, against the item definitions when the instrument has them (`itemRules`
 * undefined when it has none).
 */
function checkAnswers(c: Checker, answers: unknown, path: Path, itemRules: Map<string, ItemRule> | undefined): void {
  // The highest item position answered so far: a QuestionnaireResponse lists its items in the order of
  // the Questionnaire's (the FHIR validator rejects any other order), and answers map one to one.
  let lastIndex = -1;
  c.each(answers, path, true, (v, p) => {
    if (!c.object(v, p, true)) return;
    const linkId = v['linkId'];
    c.id(linkId, at(p, 'linkId'));
    c.text(v['text'], at(p, 'text'), false);
    c.coding(v['code'], at(p, 'code'), false);
    const answer = v['value'];
    const vp = at(p, 'value');
    if (!c.object(answer, vp, true)) return;
    const type = answer['type'];
    const inner = answer['value'];
    const issuesBefore = c.issues.length;
    if (!checkAnswerValue(c, type, inner, vp)) return;
    if (itemRules === undefined || typeof linkId !== 'string') return;
    const item = itemRules.get(linkId);
    if (item === undefined) {
      c.add(at(p, 'linkId'), 'reference', 'does not match any item of the instrument');
      return;
    }
    if (item.index < lastIndex) c.add(at(p, 'linkId'), 'range', 'must follow the item order of the instrument (an answer to a later item comes first)');
    else lastIndex = item.index;
    checkAnswerFits(c, item, type as string, inner, vp, c.issues.length === issuesBefore);
  });
  c.unique(answers, 'linkId', path, 'answer');
  c.maxSetIds(answers, path, HL7_SET_ID_LIMITS.answers, 'OBX-1');
}

/** Check an assessment at `path`. */
export function checkAssessment(c: Checker, value: unknown, path: Path): void {
  if (!c.object(value, path, true)) return;
  c.id(value['id'], at(path, 'id'));
  checkLastUpdated(c, value, path);
  const instrument = value['instrument'];
  const itemRules = checkInstrument(c, instrument, at(path, 'instrument'));
  // A plain test, not c.object: the instrument was reported above when it is not an object.
  const hasDefinitions = instrument !== null && typeof instrument === 'object' && !Array.isArray(instrument) && Array.isArray((instrument as Obj)['items']);
  c.enumValue(value['status'], ASSESSMENT_STATUSES, at(path, 'status'), true);
  c.date(value['authored'], at(path, 'authored'), true, false);
  c.id(value['authorId'], at(path, 'authorId'), false);
  c.id(value['encounterId'], at(path, 'encounterId'), false);
  checkAnswers(c, value['answers'], at(path, 'answers'), hasDefinitions ? itemRules : undefined);
  const score = value['score'];
  if (c.object(score, at(path, 'score'), false)) {
    c.nmNumber(score['value'], at(at(path, 'score'), 'value'), true, 'finite');
    c.coding(score['code'], at(at(path, 'score'), 'code'), false);
    checkHl7Text(c, score['interpretation'], at(at(path, 'score'), 'interpretation'), false, HL7_NTE3_MAX, 'NTE-3 in ORU^R01, OBX-5 in ADR^A19');
  }
}

/** Two optional codings (answer options included) are the same: system, code, display and score. */
function sameCoding(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const x = a as Obj;
  const y = b as Obj;
  // `===`: a score of -0 (JSON.parse('-0')) is the score 0, as FHIR writes it.
  return x['system'] === y['system'] && x['code'] === y['code'] && x['display'] === y['display'] && x['score'] === y['score'];
}

/**
 * Two item-definition lists define the same items: in order, the same linkId, text, type, code and options
 * (the fields the mappers read; unknown keys are ignored here as everywhere else in the check). Flat
 * comparisons only, so no input nesting can exhaust the stack.
 */
function sameItems(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x: unknown = a[i];
    const y: unknown = b[i];
    if (x === y) continue;
    if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return false;
    const p = x as Obj;
    const q = y as Obj;
    if (p['linkId'] !== q['linkId'] || p['text'] !== q['text'] || p['type'] !== q['type'] || !sameCoding(p['code'] ?? null, q['code'] ?? null)) return false;
    const po = p['options'];
    const qo = q['options'];
    if (po === undefined || qo === undefined) {
      if (po !== qo) return false;
      continue;
    }
    if (!Array.isArray(po) || !Array.isArray(qo) || po.length !== qo.length) return false;
    for (let k = 0; k < po.length; k++) if (!sameCoding(po[k], qo[k])) return false;
  }
  return true;
}

/**
 * One instrument id names one instrument across the chart: an export carries one Questionnaire per id, which
 * every response of that instrument must fit. Assessments sharing an instrument id must give it the same
 * `url` and, where both define items, the same item definitions. Runs across records, so also on charts
 * assembled from frozen ones.
 */
export function checkInstruments(c: Checker, list: unknown, path: Path): void {
  if (!Array.isArray(list) || list.length < 2) return;
  const first = new Map<string, Obj>();
  const withItems = new Map<string, Obj>();
  list.forEach((assessment: unknown, i) => {
    if (assessment === null || typeof assessment !== 'object') return;
    const instrument = (assessment as Obj)['instrument'];
    if (instrument === null || typeof instrument !== 'object') return;
    const inst = instrument as Obj;
    const id = inst['id'];
    if (typeof id !== 'string') return;
    const ip = at(at(path, i), 'instrument');
    const earlier = first.get(id);
    if (earlier === undefined) first.set(id, inst);
    else if (earlier !== inst && earlier['url'] !== inst['url']) {
      c.add(at(ip, 'url'), 'duplicate', 'differs from the url of an earlier assessment whose instrument has the same id');
    }
    if (inst['items'] === undefined) return;
    const defined = withItems.get(id);
    if (defined === undefined) withItems.set(id, inst);
    else if (defined['items'] !== inst['items'] && !sameItems(defined['items'], inst['items'])) {
      c.add(at(ip, 'items'), 'duplicate', 'differ from the item definitions of an earlier assessment whose instrument has the same id');
    }
  });
}
