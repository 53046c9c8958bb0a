#!/usr/bin/env node
/**
 * Writes `examples/data/demo-chart.json`, the synthetic demo chart document served by `npm start`, from
 * `demo-chart-generator.mjs` (deterministic: running it twice gives byte-identical output).
 *
 *   node examples/data/generate-demo-chart.mjs           # (re)write demo-chart.json
 *   node examples/data/generate-demo-chart.mjs --check   # exit 1 if demo-chart.json is not up to date
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatChartDocument, generateDemoChart } from './demo-chart-generator.mjs';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'demo-chart.json');

const document = generateDemoChart();
const text = `${formatChartDocument(document)}\n`;
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(OUT, 'utf8');
  } catch {
    // missing file: not up to date
  }
  if (current !== text) {
    console.error('examples/data/demo-chart.json is not up to date: run node examples/data/generate-demo-chart.mjs');
    process.exit(1);
  }
  console.log('examples/data/demo-chart.json is up to date');
} else {
  writeFileSync(OUT, text);
  console.log(`wrote ${OUT} (${document.patients.length} patients, ${Buffer.byteLength(text)} bytes)`);
}
