/**
 * The "Sample output" HL7 messages of docs/hl7-samples.md are real output: each block must equal what the builders give
 * for the example fixture with the options the page names, so the documentation cannot drift from the code.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildAdrA19, buildAdtA08, buildAdtA31, buildMdmT02, buildOruR01 } from '../../src/index.js';
import { CHART, DIRECTORY } from './fixtures.js';

const HEADER = {
  now: '2026-03-01T10:30:00-05:00',
  sendingApplication: 'CHART-EXPORT',
  sendingFacility: 'RIVERSIDE',
  receivingApplication: 'PARTNER',
  receivingFacility: 'PARTNER-HIE',
  directory: DIRECTORY,
};

/** The fenced blocks of the "Sample output" section of docs/hl7-samples.md that hold a message, as sent (CR after each segment). */
function sampleMessages(): string[] {
  const page = readFileSync(new URL('../../docs/hl7-samples.md', import.meta.url), 'utf8');
  const start = page.indexOf('\n## Sample output\n');
  if (start === -1) throw new Error('docs/hl7-samples.md has no "## Sample output" section');
  const section = page.slice(start, page.indexOf('\n## ', start + 1));
  const blocks = [...section.matchAll(/```\n(MSH\|[\s\S]*?)```/g)].map((m) => m[1] as string);
  return blocks.map((block) => `${block.trimEnd().split('\n').join('\r')}\r`);
}

describe('docs/hl7-samples.md sample output', () => {
  it('should show exactly what the builders produce', () => {
    const samples = sampleMessages();
    const byControlId = new Map(samples.map((m) => [m.split('\r')[0]?.split('|')[9], m]));
    const built: Record<string, string> = {
      ADT0001: buildAdtA31(CHART, { ...HEADER, controlId: 'ADT0001' }),
      ADT0002: buildAdtA08(CHART, 'enc-0001', { ...HEADER, controlId: 'ADT0002' }),
      MDM0001: buildMdmT02(CHART, 'note-0001', { ...HEADER, controlId: 'MDM0001' }),
      ORU0001: buildOruR01(CHART, 'asmt-0001', { ...HEADER, controlId: 'ORU0001' }),
      ADR0001: buildAdrA19(CHART, { ...HEADER, controlId: 'ADR0001', queryId: 'Q0001' }),
    };
    expect([...byControlId.keys()].sort()).toEqual(Object.keys(built).sort());
    for (const [controlId, message] of Object.entries(built)) expect(byControlId.get(controlId), controlId).toBe(message);
  });
});
