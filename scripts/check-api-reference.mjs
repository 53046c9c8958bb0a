// `npm run docs:check`: the committed API reference (docs/api/, Markdown written by TypeDoc with
// typedoc-plugin-markdown from the TSDoc of the three entry points) is what `npm run docs` writes now.
// TypeDoc runs once, into a scratch folder, with the validation of typedoc.json (a broken {@link}, an
// undocumented export or a reference to one that is not exported fails here too). Exits 1, naming the
// files that differ, when the reference is stale: run `npm run docs` and commit docs/api/.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const committed = join(root, 'docs', 'api');
const scratch = mkdtempSync(join(tmpdir(), 'chart-export-api-'));
try {
  const typedoc = join(root, 'node_modules', 'typedoc', 'bin', 'typedoc');
  const run = spawnSync(process.execPath, [typedoc, '--out', scratch], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
  const list = (dir) => {
    try {
      return readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.md')).sort();
    } catch {
      return [];
    }
  };
  const fresh = list(scratch);
  const kept = list(committed);
  const names = [...new Set([...fresh, ...kept])].sort();
  const stale = names.filter((f) => {
    if (!fresh.includes(f) || !kept.includes(f)) return true;
    return readFileSync(join(scratch, f), 'utf8') !== readFileSync(join(committed, f), 'utf8');
  });
  if (stale.length > 0) {
    console.error(`docs/api/ is stale (${stale.join(', ')}): run  npm run docs  and commit docs/api/.`);
    process.exit(1);
  }
  console.log(`docs/api/ is up to date (${fresh.length} files).`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
