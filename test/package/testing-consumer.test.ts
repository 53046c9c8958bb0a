/**
 * chart-export/testing in a fresh consumer project, as a team installs it: the packed tarball next to fast-check
 * (and Vitest), both linked from this repository's node_modules (no network; test/support/packed-package.ts).
 * The documented example (examples/testing-kit.property.test.mjs) runs there under Vitest, and property tests
 * (the first snippet of docs/property-testing.md among them) run under `node:test` with `require` and with `import`: the kit's arbitraries drive the consumer's own
 * fast-check, a failure names what broke, and errors thrown through the kit are the core's classes.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, installPackedPackage } from '../support/packed-package.js';

/** A node:test suite over the kit; `load` is how the file gets its three modules. */
function nodeTestSuite(load: string): string {
  return `${load}
const NOW = '2026-03-01T10:00:00Z';

test('generated documents pass the check, and hostile text round-trips', () => {
  fc.assert(fc.property(kit.chartDocument({ text: 'hostile' }), (doc) => {
    assert.deepEqual(core.checkChartDocument(doc), []);
  }), { numRuns: 50 });
  fc.assert(fc.property(kit.hl7Text({ kind: 'hostile' }), kit.hl7Delimiters(), (text, d) => {
    kit.assertEscapeRoundTrip(text, d);
  }));
});

test('a failing property reports the HL7 location and both values, on a shrunk chart', () => {
  const result = fc.check(fc.property(kit.patientChart({ text: 'realistic', mappable: true }), ({ chart, directory }) => {
    const message = core.buildAdtA31(chart, { now: NOW, controlId: 'ADT1', directory });
    kit.assertHl7ReadsBack(message, { 'PID-5.1': 'nobody' });
  }));
  assert.equal(result.failed, true);
  assert.ok(result.errorInstance instanceof kit.PropertyAssertionError);
  assert.match(result.errorInstance.message, /PID-5\\.1: expected "nobody", got /);
});

test("errors thrown through the kit are the core's classes", () => {
  const bad = { field: 'a', component: '^', repetition: '~', escape: '\\\\', subcomponent: '&' };
  assert.throws(() => kit.assertEscapeRoundTrip('x', bad), (e) => e instanceof core.InvalidArgumentError && e instanceof core.ChartExportError);
});
`;
}

const CJS = nodeTestSuite(`const test = require('node:test');
const assert = require('node:assert/strict');
const fc = require('fast-check');
const core = require('chart-export');
const kit = require('chart-export/testing');`);

const ESM = nodeTestSuite(`import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as core from 'chart-export';
import * as kit from 'chart-export/testing';`);

/** The first ```js block of docs/property-testing.md, as a reader pastes it. */
function docsSnippet(): string {
  const block = /^```js\n([\s\S]*?)^```$/m.exec(readFileSync(join(ROOT, 'docs/property-testing.md'), 'utf8'))?.[1];
  if (block === undefined) throw new Error('docs/property-testing.md has no ```js block');
  return block;
}

let tmp = '';

/** The environment without the outer run's VITEST* variables, which would make an inner vitest think it is a worker. */
function consumerEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && !k.startsWith('npm_') && k !== 'FORCE_COLOR'));
  return { ...env, NO_COLOR: '1' };
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'chart-export-testing-consumer-'));
  installPackedPackage(tmp, ['fast-check', 'vitest']);
  writeFileSync(join(tmp, 'package.json'), JSON.stringify({ name: 'my-pipeline', private: true, type: 'commonjs' }));
  copyFileSync(join(ROOT, 'examples/testing-kit.property.test.mjs'), join(tmp, 'testing-kit.property.test.mjs'));
  writeFileSync(join(tmp, 'kit.node-test.cjs'), CJS);
  writeFileSync(join(tmp, 'kit.node-test.mjs'), ESM);
  writeFileSync(join(tmp, 'docs-snippet.node-test.mjs'), docsSnippet());
}, 120_000);

afterAll(() => {
  if (tmp !== '') rmSync(tmp, { recursive: true, force: true });
});

describe('chart-export/testing in a consumer project', () => {
  it("should run the documented example under the consumer's Vitest", () => {
    const run = spawnSync(process.execPath, [join(tmp, 'node_modules/vitest/vitest.mjs'), 'run', 'testing-kit.property.test.mjs'], {
      cwd: tmp,
      env: consumerEnv(),
      encoding: 'utf8',
      timeout: 180_000,
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/Tests\s+4 passed \(4\)/);
  }, 200_000);

  it('should run property tests under node:test, with require and with import, the docs snippet among them', () => {
    const files = ['kit.node-test.cjs', 'kit.node-test.mjs', 'docs-snippet.node-test.mjs'];
    const run = spawnSync(process.execPath, ['--test', ...files], { cwd: tmp, env: consumerEnv(), encoding: 'utf8', timeout: 180_000 });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/^# pass 7$/m);
    expect(run.stdout).toMatch(/^# fail 0$/m);
  }, 200_000);
});
