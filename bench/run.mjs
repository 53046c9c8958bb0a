// Run every bench/*.bench.mjs in its own child process (`node --expose-gc`), one after another, so one
// benchmark's heap and JIT state never colour the next; then print one table of every headline figure with its
// target (the `SUMMARY` lines the benchmarks print, see support/summary.mjs). Exits non-zero when any benchmark
// fails; BENCH_STRICT=1 also when a headline figure misses its target.
//
//   npm run bench                    (builds first, then runs this)
//   node bench/run.mjs http          (only the benchmarks whose file name contains "http")
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { readSummary } from './support/summary.mjs';

const dir = fileURLToPath(new URL('.', import.meta.url));
const filter = process.argv[2];
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.mjs') && (filter === undefined || f.includes(filter)))
  .sort();

if (files.length === 0) {
  console.error(`No benchmark matches ${filter === undefined ? 'bench/*.bench.mjs' : JSON.stringify(filter)}.`);
  process.exit(1);
}

const failed = [];
const summary = [];
for (const file of files) {
  console.log(`\n=== ${file}`);
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', `${dir}${file}`], { stdio: ['ignore', 'pipe', 'inherit'] });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const figure = readSummary(line);
      if (figure === undefined) console.log(line);
      else summary.push({ bench: file.replace('.bench.mjs', ''), ...figure });
    });
    child.on('close', (c, signal) => resolve(signal === null ? c : 1));
    child.on('error', () => resolve(1));
  });
  if (code !== 0) failed.push(file);
}

if (summary.length > 0) {
  console.log('\nSummary: every headline figure with its target (medians of interleaved rounds; ratios within one run)');
  console.table(
    summary.map((s) => ({
      bench: s.bench,
      figure: s.figure,
      value: s.value.toFixed(2),
      target: s.target,
      met: s.met === undefined ? '' : s.met ? 'yes' : 'NO',
    })),
  );
}
const missed = summary.filter((s) => s.met === false);
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join(', ')}`);
  process.exit(1);
}
if (process.env.BENCH_STRICT === '1' && missed.length > 0) {
  console.error(`\nBelow target: ${missed.map((s) => s.figure).join('; ')}`);
  process.exit(1);
}
console.log(`\nAll ${files.length} benchmark(s) passed.`);
