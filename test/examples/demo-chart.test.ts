import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Assessment, ChartDocument, Encounter } from '../../src/model/index.js';
import { checkChartDocument, validateChartDocument } from '../../src/validation/chart-check.js';
import { GAD7_ITEMS, PHQ9_ITEMS } from '../../src/testing/instruments.js';

const FILE = fileURLToPath(new URL('../../examples/data/demo-chart.json', import.meta.url));
const GENERATOR = fileURLToPath(new URL('../../examples/data/generate-demo-chart.mjs', import.meta.url));
const doc = validateChartDocument(JSON.parse(readFileSync(FILE, 'utf8')));

const charts = doc.patients;
const encounters: Encounter[] = charts.flatMap((c) => c.encounters ?? []);
const notes = charts.flatMap((c) => c.notes ?? []);
const assessments: Assessment[] = charts.flatMap((c) => c.assessments ?? []);
const history = charts.flatMap((c) => c.medicalHistory ?? []);
const directory = doc.directory ?? {};

/** The UTC offset America/Chicago had at an instant, as `±hh:mm` (from the ICU time-zone database). */
function chicagoOffset(instant: string): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Chicago', timeZoneName: 'longOffset' })
    .formatToParts(new Date(instant))
    .find((p) => p.type === 'timeZoneName')?.value;
  return (name ?? '').replace('GMT', '');
}

/** Every date-time (with a time) in the records. */
function dateTimes(d: ChartDocument): string[] {
  const out: string[] = [];
  const add = (v: unknown): void => {
    if (typeof v === 'string' && v.includes('T')) out.push(v);
  };
  for (const c of d.patients) {
    add(c.patient.deceased);
    for (const e of c.encounters ?? []) {
      add(e.period?.start);
      add(e.period?.end);
      for (const p of e.procedures ?? []) {
        if (typeof p.performed === 'object') {
          add(p.performed.start);
          add(p.performed.end);
        } else add(p.performed);
      }
    }
    for (const n of c.notes ?? []) add(n.authored);
    for (const a of c.assessments ?? []) add(a.authored);
    for (const h of c.medicalHistory ?? []) [h.onset, h.abatement, h.recordedDate].forEach(add);
  }
  return out;
}

function luhnNpi(npi: string): boolean {
  const full = `80840${npi}`;
  let sum = 0;
  for (let i = 0; i < full.length; i++) {
    let d = Number(full[full.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

describe('examples/data/demo-chart.json', () => {
  it('should pass validateChartDocument with no issues', () => {
    expect(checkChartDocument(doc)).toEqual([]);
  });

  it('should stay under 1 MB', () => {
    expect(statSync(FILE).size).toBeLessThan(1024 * 1024);
  });

  it('should be exactly what the committed generator produces', () => {
    // --check exits non-zero when the file differs from a fresh generation.
    expect(() => execFileSync(process.execPath, [GENERATOR, '--check'], { stdio: 'pipe' })).not.toThrow();
  });

  it('should have at least 20 patients with varied demographics', () => {
    expect(charts.length).toBeGreaterThanOrEqual(20);
    const patients = charts.map((c) => c.patient);
    expect(new Set(patients.map((p) => p.gender))).toEqual(new Set(['male', 'female', 'other', 'unknown']));
    expect(new Set(patients.map((p) => p.maritalStatus)).size).toBeGreaterThanOrEqual(7);
    expect(new Set(patients.map((p) => p.language)).size).toBeGreaterThanOrEqual(10);
    const names = patients.flatMap((p) => p.names.flatMap((n) => [n.family ?? '', ...(n.given ?? []), n.text ?? '']));
    expect(names.some((n) => n.includes("'"))).toBe(true);
    expect(names.some((n) => /\p{L}-\p{L}/u.test(n))).toBe(true);
    expect(names.some((n) => /[À-ÿĀ-ž]/.test(n))).toBe(true); // accented Latin
    for (const script of [/\p{Script=Han}/u, /\p{Script=Arabic}/u, /\p{Script=Hebrew}/u, /\p{Script=Cyrillic}/u, /\p{Script=Hangul}/u]) {
      expect(names.some((n) => script.test(n)), String(script)).toBe(true);
    }
    expect(patients.filter((p) => (p.addresses?.length ?? 0) >= 2).length).toBeGreaterThanOrEqual(5);
    const telecoms = patients.flatMap((p) => p.telecoms ?? []);
    expect(telecoms.some((t) => t.system === 'phone' && t.use === 'mobile')).toBe(true);
    expect(telecoms.some((t) => t.system === 'phone' && t.use === 'work')).toBe(true);
    expect(telecoms.some((t) => t.system === 'phone' && t.use === 'home')).toBe(true);
    expect(telecoms.some((t) => t.system === 'email')).toBe(true);
    expect(patients.some((p) => p.deceased !== undefined)).toBe(true);
  });

  it('should have coverage with several payers, plans, groups, member ids and secondary coverage', () => {
    const coverages = charts.flatMap((c) => c.patient.coverages ?? []);
    expect(new Set(coverages.map((c) => c.payer.id)).size).toBeGreaterThanOrEqual(5);
    expect(coverages.every((c) => c.memberId !== undefined && c.plan !== undefined)).toBe(true);
    expect(coverages.some((c) => c.group !== undefined)).toBe(true);
    expect(coverages.filter((c) => c.order === 2).length).toBeGreaterThanOrEqual(3);
    expect(new Set(coverages.map((c) => c.relationship))).toEqual(new Set(['self', 'spouse', 'child']));
  });

  it('should have encounters of several classes with ICD-10-CM diagnoses and CPT / SNOMED CT procedures', () => {
    const classes = new Set(encounters.map((e) => e.class));
    for (const cls of ['AMB', 'EMER', 'IMP', 'VR', 'HH', 'OBSENC']) expect(classes, cls).toContain(cls);
    const dx = new Set(encounters.flatMap((e) => (e.diagnoses ?? []).filter((d) => d.code.system === 'icd-10-cm').map((d) => d.code.code)));
    for (const code of ['F32.1', 'F41.1', 'E11.9', 'I10', 'J45.909', 'M54.50']) expect(dx, code).toContain(code);
    const procedures = encounters.flatMap((e) => e.procedures ?? []);
    const cpt = new Set(procedures.filter((p) => p.code.system === 'cpt').map((p) => p.code.code));
    for (const code of ['90834', '99213', '99214', '90791', '96127']) expect(cpt, code).toContain(code);
    expect(procedures.some((p) => p.code.system === 'snomed-ct')).toBe(true);
    expect(encounters.every((e) => e.locationId !== undefined && (e.participants?.length ?? 0) > 0)).toBe(true);
    expect(new Set(encounters.map((e) => e.status))).toEqual(new Set(['finished', 'planned', 'cancelled']));
  });

  it('should date every procedure, by itself or by its encounter start, so that HL7 PR1-5 can always be filled', () => {
    const undated = encounters.filter((e) => e.period?.start === undefined && (e.procedures ?? []).some((p) => (typeof p.performed === 'object' ? p.performed.start : p.performed) === undefined));
    expect(encounters.some((e) => (e.procedures?.length ?? 0) > 0)).toBe(true);
    expect(undated.map((e) => e.id)).toEqual([]);
  });

  it('should have progress notes and discharge summaries with multi-line text and characters HL7 must escape', () => {
    const types = new Set(notes.map((n) => n.type));
    for (const type of ['progress-note', 'discharge-summary', 'consultation-note', 'history-and-physical']) expect(types, type).toContain(type);
    const texts = notes.map((n) => n.text);
    expect(texts.filter((t) => t.includes('\n')).length).toBeGreaterThan(notes.length / 2);
    expect(texts.some((t) => t.includes('\r\n'))).toBe(true);
    for (const ch of ['&', '^', '|', '~', '\\', '\t']) expect(texts.some((t) => t.includes(ch)), ch).toBe(true);
    expect(texts.some((t) => t.includes('BP ') && t.includes(' | HR '))).toBe(true);
    expect(texts.some((t) => t.includes('C:\\Users\\notes'))).toBe(true);
    expect(texts.some((t) => t.includes('\\\\riverside-fs01\\'))).toBe(true);
    // Text that looks like HL7 escape sequences must survive as typed.
    expect(texts.some((t) => t.includes('\\.br\\') && t.includes('\\F\\'))).toBe(true);
    expect(texts.some((t) => /[\u{1F300}-\u{1FAFF}]/u.test(t))).toBe(true);
    expect(new Set(notes.map((n) => n.confidentiality ?? 'N'))).toEqual(new Set(['N', 'R', 'V']));
  });

  it('should have PHQ-9 and GAD-7 assessments whose total scores are the sums of their answers', () => {
    const phq9 = assessments.filter((a) => a.instrument.code?.code === '44249-1');
    const gad7 = assessments.filter((a) => a.instrument.code?.code === '69737-5');
    expect(phq9.length).toBeGreaterThanOrEqual(10);
    expect(gad7.length).toBeGreaterThanOrEqual(10);
    expect(phq9[0]?.instrument.items?.map((i) => i.code?.code)).toEqual(PHQ9_ITEMS.map(([code]) => code));
    expect(gad7[0]?.instrument.items?.map((i) => i.code?.code)).toEqual(GAD7_ITEMS.map(([code]) => code));
    for (const a of [...phq9, ...gad7]) {
      const items = a.instrument.items ?? [];
      const scores = a.answers.map((ans) => (ans.value.type === 'coding' ? ans.value.value.score : undefined));
      expect(scores.every((s) => s !== undefined && s >= 0 && s <= 3)).toBe(true);
      for (const ans of a.answers) {
        expect(ans.value.type).toBe('coding');
        if (ans.value.type === 'coding') expect(['LA6568-5', 'LA6569-3', 'LA6570-1', 'LA6571-9']).toContain(ans.value.value.code);
      }
      if (a.status === 'completed' || a.status === 'amended') {
        expect(a.answers).toHaveLength(items.length);
        expect(a.score?.value).toBe(scores.reduce<number>((s, x) => s + (x ?? 0), 0));
        expect(a.score?.code?.code).toBe(a.instrument.code?.code === '44249-1' ? '44261-6' : '70274-6');
      } else {
        expect(a.score).toBeUndefined();
      }
    }
    // Some recorded without item definitions too (PHQ-2), with text and code on each answer.
    const bare = assessments.filter((a) => a.instrument.items === undefined);
    expect(bare.length).toBeGreaterThan(0);
    for (const a of bare) for (const ans of a.answers) expect(ans.text !== undefined && ans.code !== undefined).toBe(true);
  });

  it('should have active and resolved medical history, resolved entries with an abatement', () => {
    expect(history.some((h) => h.clinicalStatus === 'active')).toBe(true);
    const ended = history.filter((h) => ['resolved', 'inactive', 'remission'].includes(h.clinicalStatus));
    expect(ended.length).toBeGreaterThan(0);
    expect(ended.every((h) => h.abatement !== undefined)).toBe(true);
  });

  it('should have a directory of organizations, practitioners with NPIs, and locations', () => {
    expect(directory.organizations?.length).toBeGreaterThanOrEqual(3);
    expect(directory.organizations?.some((o) => o.partOfId !== undefined)).toBe(true);
    expect(directory.locations?.length).toBeGreaterThanOrEqual(5);
    const practitioners = directory.practitioners ?? [];
    expect(practitioners.length).toBeGreaterThanOrEqual(5);
    for (const p of practitioners) {
      const npi = p.identifiers?.find((i) => i.system === 'http://hl7.org/fhir/sid/us-npi');
      expect(npi?.value).toMatch(/^\d{10}$/);
      expect(luhnNpi(npi?.value ?? '')).toBe(true);
    }
  });

  it('should give America/Chicago offsets that match daylight saving time, over 2023–2026', () => {
    const all = dateTimes(doc);
    expect(all.length).toBeGreaterThan(300);
    for (const dt of all) expect(dt.slice(-6), dt).toBe(chicagoOffset(dt));
    expect(new Set(all.map((d) => d.slice(-6)))).toEqual(new Set(['-05:00', '-06:00']));
    const years = new Set(encounters.map((e) => e.period?.start?.slice(0, 4)));
    for (const y of ['2023', '2024', '2025', '2026']) expect(years, y).toContain(y);
    // A stay that crosses a daylight-saving change carries two different offsets.
    expect(encounters.some((e) => e.period?.start !== undefined && e.period.end !== undefined && e.period.start.slice(-6) !== e.period.end.slice(-6))).toBe(true);
  });
});
