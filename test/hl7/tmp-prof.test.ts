import fc from 'fast-check';
import { it } from 'vitest';
import { buildAdrA19, buildAdtA08, buildAdtA31, buildMdmT02, buildOruR01, checkHl7Message, parseHl7Message, MappingError } from '../../src/index.js';
import { arbPatientChart } from '../arbitraries/index.js';
import { crossCheckWithMedplum } from './support.js';
it('prof', () => {
  const t0 = performance.now();
  const samples = fc.sample(arbPatientChart({ text: 'hostile', danglingReferences: true, maxEncounters: 2, maxNotes: 2 }), 40);
  const t1 = performance.now();
  let build = 0, check = 0, cross = 0, parse = 0, maxLen = 0;
  for (const { chart, directory } of samples) {
    const o = { directory, now: '2026-03-01T10:30:00-05:00' };
    const msgs: string[] = [];
    const tb = performance.now();
    for (const f of [() => buildAdtA31(chart, o), () => buildAdrA19(chart, o), ...(chart.notes ?? []).map((n) => () => buildMdmT02(chart, n.id, o))]) {
      try { msgs.push(f()); } catch (e) { if (!(e instanceof MappingError)) throw e; }
    }
    build += performance.now() - tb;
    for (const m of msgs) {
      maxLen = Math.max(maxLen, m.length);
      let t = performance.now(); checkHl7Message(m); check += performance.now() - t;
      t = performance.now(); crossCheckWithMedplum(m); cross += performance.now() - t;
      t = performance.now(); parseHl7Message(m); parse += performance.now() - t;
    }
  }
  console.log({ gen: t1 - t0, build, check, cross, parse, maxLen });
});
