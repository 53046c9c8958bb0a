/**
 * The module boundaries as lint rules (eslint.config.js, beside boundaries.test.ts which checks the source as
 * it is): each import below is linted as if it were written in the file named, and must be refused or
 * accepted by no-restricted-imports.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

/** The no-restricted-imports messages for one import statement in a file at `file` (relative to the root). */
async function restricted(file: string, statement: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${statement}\n`, { filePath: `${ROOT}${file}` });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const REFUSED: [file: string, statement: string][] = [
  // The core never imports the adapter, the command, test helpers or Node.
  ['src/index.ts', "export { createExportHandler } from './http/index.js';"],
  ['src/fhir/patient.ts', "import { x } from '../http/handler.js';"],
  ['src/fhir/internal/ids.ts', "import type { X } from '../../http/index.js';"],
  ['src/validation/chart.ts', "import { x } from '../cli/run.js';"],
  ['src/hl7/parser.ts', "import { x } from '../testing/index.js';"],
  ['src/internal/iso.ts', "import { readFileSync } from 'node:fs';"],
  // model/ imports only model/; fhir/ and hl7/ stay apart.
  ['src/model/patient.ts', "import type { IssuePath } from '../errors.js';"],
  ['src/fhir/internal/codings.ts', "import { escapeHl7 } from '../../hl7/encoding.js';"],
  ['src/hl7/segments/pid.ts', "import { x } from '../../fhir/internal/ids.js';"],
  // The adapter: the core only through src/index.ts and src/internal/adapter.ts.
  ['src/http/handler.ts', "import { toFhirPatient } from '../fhir/patient.js';"],
  ['src/http/handler.ts', "import { ChartExportError } from '../errors.js';"],
  ['src/http/internal/query.ts', "import type { ChartIssue } from '../../errors.js';"],
  ['src/http/internal/query.ts', "import { sha256 } from '../../internal/sha256.js';"],
  ['src/http/handler.ts', "import { x } from '../cli/run.js';"],
  // The command: the core and the adapter only through their entries.
  ['src/cli/run.ts', "import { createExportHandler } from '../http/handler.js';"],
  ['src/cli/run.ts', "import { x } from '../internal/adapter.js';"],
  ['src/cli/run.ts', "import { x } from '../validation/chart.js';"],
  ['src/cli/sub/banner.ts', "import { x } from '../../http/routes.js';"],
];

const ACCEPTED: [file: string, statement: string][] = [
  ['src/fhir/patient.ts', "import type { Patient } from '../model/patient.js';"],
  ['src/fhir/patient.ts', "import type * as fhir from 'fhir/r4.js';"],
  ['src/hl7/segments/pid.ts', "import { hasText } from '../../internal/text.js';"],
  ['src/model/patient.ts', "import type { Coding } from './common.js';"],
  ['src/http/handler.ts', "import { ChartExportError } from '../index.js';"],
  ['src/http/handler.ts', "import { x } from '../internal/adapter.js';"],
  ['src/http/handler.ts', "import { x } from './internal/query.js';"],
  ['src/http/internal/query.ts', "import type { ChartIssue } from '../../index.js';"],
  ['src/http/internal/query.ts', "import { x } from '../errors.js';"],
  ['src/http/node.ts', "import type { IncomingMessage } from 'node:http';"],
  ['src/cli/run.ts', "import { formatIssuePath } from '../index.js';"],
  ['src/cli/run.ts', "import { createExportHandler } from '../http/index.js';"],
  ['src/cli/run.ts', "import { DEMO_KEYS } from './demo.js';"],
  ['src/cli/run.ts', "import demoChart from '../../examples/data/demo-chart.json';"],
  ['src/cli/sub/banner.ts', "import { x } from '../../http/index.js';"],
  ['src/cli/sub/banner.ts', "import { x } from '../run.js';"],
];

describe('module boundaries as lint rules', () => {
  it.each(REFUSED)('should refuse in %s: %s', async (file, statement) => {
    expect(await restricted(file, statement)).toHaveLength(1);
  });

  it.each(ACCEPTED)('should accept in %s: %s', async (file, statement) => {
    expect(await restricted(file, statement)).toEqual([]);
  });
});
