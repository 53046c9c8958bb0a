// Run every bench/*.bench.mjs in its own child process (`node --expose-gc`), one after another, so one
// benchmark's heap and JIT state never colour the next. Exits non-zero when any benchmark fails.
//
//   npm run bench                    (builds first, then runs this)
//   node bench/run.mjs http          (only the benchmarks whose file name contains "http")
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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
for (const file of files) {
  console.log(`\n=== ${file}`);
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', `${dir}${file}`], { stdio: 'inherit' });
    child.on('exit', (c, signal) => resolve(signal === null ? c : 1));
    child.on('error', () => resolve(1));
  });
  if (code !== 0) failed.push(file);
}

if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join(', ')}`);
  process.exit(1);
}
console.log(`\nAll ${files.length} benchmark(s) passed.`);
