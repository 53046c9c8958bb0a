/**
 * The golden test: every endpoint body and every builder output for the demo chart, compared byte for byte
 * with the outputs recorded before a restructuring (as SHA-256 digests in `golden.json`, one per output).
 * A restructuring must leave this file and `golden.json` unchanged.
 *
 * - `GOLDEN_DUMP=dir npx vitest run test/golden` also writes each output to `dir/` (one file per output), so two
 *   checkouts' dumps can be compared with `diff -r`.
 * - `GOLDEN_UPDATE=1 npx vitest run test/golden` rewrites `golden.json`: only for a deliberate change of output,
 *   named in the commit that makes it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builderOutputs, httpOutputs, type Output } from './outputs.js';

const GOLDEN = new URL('./golden.json', import.meta.url);
const digest = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

function compare(kind: string, outputs: readonly Output[]): void {
  const actual: Record<string, string> = {};
  for (const [name, text] of outputs) {
    expect(actual[name], `output name given twice: ${name}`).toBeUndefined();
    actual[name] = digest(text);
  }
  const dump = process.env['GOLDEN_DUMP'];
  if (dump !== undefined && dump !== '') {
    mkdirSync(dump, { recursive: true });
    outputs.forEach(([name, text]) => writeFileSync(join(dump, `${kind}-${digest(name).slice(0, 12)}.txt`), `${name}\n\n${text}`));
  }
  const all = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Record<string, Record<string, string>>;
  if (process.env['GOLDEN_UPDATE'] === '1') {
    all[kind] = actual;
    writeFileSync(GOLDEN, `${JSON.stringify(all, null, 1)}\n`);
  }
  const expected = all[kind] ?? {};
  expect(Object.keys(actual)).toEqual(Object.keys(expected));
  const differing = Object.keys(actual).filter((name) => actual[name] !== expected[name]);
  expect(differing, `${differing.length} outputs differ from the recorded ones`).toEqual([]);
}

describe('golden outputs of the demo chart', () => {
  it('every endpoint answer (both FHIR modes, errors included) is byte-identical to the recorded one', async () => {
    const outputs = await httpOutputs();
    expect(outputs.length).toBeGreaterThan(1000);
    compare('http', outputs);
  });

  it('every builder, mapper and HL7 check output is byte-identical to the recorded one', () => {
    const outputs = builderOutputs();
    expect(outputs.length).toBeGreaterThan(1000);
    compare('builders', outputs);
  });
});
