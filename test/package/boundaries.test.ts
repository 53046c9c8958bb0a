/**
 * Module boundaries, checked on the source imports (and as lint rules in eslint.config.js):
 * the core never imports the adapter, the testing kit, the command or a Node API; fhir/ and hl7/ do not import
 * each other; model/ imports only model/; the adapter reaches the core only through src/index.ts and
 * src/internal/adapter.ts (shared internals, built as their own file and not in the exports map); the testing
 * kit reaches the core only through src/index.ts, and its one runtime dependency is fast-check; the adapter and
 * the kit never import each other; the service command (src/cli/) reaches the library only through its public
 * entries; chart-export/postgres (src/postgres/) reaches the library through src/index.ts, src/http/index.ts
 * and src/internal/adapter.ts, its one runtime dependency is `pg`, and nothing else in src/ imports it but the
 * command (lazily, so the command runs without `pg`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../../src', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

/** Every module specifier imported or re-exported by a file, resolved relative to src/ when relative. */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g)].map((m) => m[1] as string);
  specs.push(...[...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] as string));
  return specs.map((s) => (s.startsWith('.') ? relative(src, join(file, '..', s)).replace(/\\/g, '/') : s));
}

const all = files(src).map((f) => ({ file: relative(src, f).replace(/\\/g, '/'), deps: imports(f) }));

describe('module boundaries', () => {
  it('should find the source files', () => {
    expect(all.some((f) => f.file === 'index.ts')).toBe(true);
  });

  it('should keep the core free of the adapter, Node APIs and runtime dependencies', () => {
    const core = all.filter((f) => !/^(http|cli|testing|mllp|postgres)\//.test(f.file));
    for (const { file, deps } of core) {
      for (const dep of deps) {
        expect(dep.startsWith('http/') || dep === 'http' || dep.startsWith('cli/'), `${file} imports ${dep}`).toBe(false);
        expect(dep.startsWith('mllp/') || dep === 'mllp', `${file} imports ${dep}`).toBe(false);
        expect(dep.startsWith('testing/') || dep === 'testing', `${file} imports ${dep}`).toBe(false);
        expect(dep.startsWith('postgres/'), `${file} imports ${dep}`).toBe(false);
        // Only type imports of @types/fhir ('fhir/r4.js') may leave the package.
        const external = !dep.startsWith('..') && !/^(index|errors|model|fhir|hl7|internal|validation)(\/|\.js$|$)/.test(dep);
        expect(!external || dep === 'fhir/r4.js', `${file} imports ${dep}`).toBe(true);
      }
    }
  });

  it("should import @types/fhir as 'fhir/r4.js', the specifier every moduleResolution finds", () => {
    // @types/fhir has no exports map: from ESM under node16/nodenext a bare 'fhir/r4' in our emitted .d.ts is
    // not found, and with skipLibCheck every FHIR type in our signatures silently becomes any.
    for (const f of files(src)) {
      const specs = [...readFileSync(f, 'utf8').matchAll(/\bfrom\s+['"](fhir\/[^'"]*)['"]/g)].map((m) => m[1]);
      for (const spec of specs) expect(spec, relative(src, f)).toBe('fhir/r4.js');
    }
  });

  it('should keep model/ self-contained and fhir/ and hl7/ apart', () => {
    for (const { file, deps } of all) {
      if (file.startsWith('model/')) for (const d of deps) expect(d.startsWith('model/'), `${file} imports ${d}`).toBe(true);
      if (file.startsWith('fhir/')) for (const d of deps) expect(d.startsWith('hl7/'), `${file} imports ${d}`).toBe(false);
      if (file.startsWith('hl7/')) for (const d of deps) expect(d.startsWith('fhir/'), `${file} imports ${d}`).toBe(false);
    }
  });

  it('should let the adapter reach the core only through src/index.ts and src/internal/adapter.ts', () => {
    const adapter = all.filter((f) => f.file.startsWith('http/'));
    expect(adapter.length).toBeGreaterThan(0);
    for (const { file, deps } of adapter) {
      for (const d of deps) {
        const core = !d.startsWith('http/') && /^(index|errors|model|fhir|hl7|internal|validation)(\/|\.js$)/.test(d);
        expect(!core || d === 'index.js' || d === 'internal/adapter.js', `${file} imports ${d}`).toBe(true);
      }
    }
  });

  it('should keep the adapter free of the testing kit and the MLLP client', () => {
    for (const { file, deps } of all.filter((f) => f.file.startsWith('http/'))) {
      for (const d of deps) expect(d.startsWith('testing/') || d === 'testing', `${file} imports ${d}`).toBe(false);
      for (const d of deps) expect(d.startsWith('mllp/') || d === 'mllp', `${file} imports ${d}`).toBe(false);
    }
  });

  it('should let the MLLP client reach the core only through src/index.ts, with Node APIs and no other dependency', () => {
    const mllp = all.filter((f) => f.file.startsWith('mllp/'));
    expect(mllp.some((f) => f.file === 'mllp/index.ts')).toBe(true);
    for (const { file, deps } of mllp) {
      for (const d of deps) {
        const allowed = d === 'index.js' || d.startsWith('mllp/') || d.startsWith('node:');
        expect(allowed, `${file} imports ${d}`).toBe(true);
      }
    }
  });

  it('should let the testing kit reach the core only through src/index.ts, and import nothing but fast-check and FHIR types', () => {
    const kit = all.filter((f) => f.file.startsWith('testing/'));
    expect(kit.some((f) => f.file === 'testing/index.ts')).toBe(true);
    for (const { file, deps } of kit) {
      for (const d of deps) {
        const allowed = d === 'index.js' || d.startsWith('testing/') || d === 'fast-check' || d === 'fhir/r4.js';
        expect(allowed, `${file} imports ${d}`).toBe(true);
      }
    }
  });

  it('should let the service command reach the library only through its public entries', () => {
    const cli = all.filter((f) => f.file.startsWith('cli/'));
    expect(cli.length).toBeGreaterThan(0);
    for (const { file, deps } of cli) {
      for (const d of deps) {
        if (d.startsWith('cli/') || d.startsWith('node:') || d.startsWith('..')) continue;
        expect(['index.js', 'http/index.js', 'mllp/index.js', 'postgres/index.js'], `${file} imports ${d}`).toContain(d);
      }
    }
  });

  it('should load chart-export/postgres in the command only lazily, so the command runs without pg', () => {
    for (const f of files(join(src, 'cli'))) {
      const text = readFileSync(f, 'utf8');
      expect([...text.matchAll(/^\s*import\s+(?!type\b)[^;]*from\s+['"][^'"]*postgres\/index\.js['"]/gm)], relative(src, f)).toEqual([]);
    }
  });

  it('should let chart-export/postgres reach the library only through its entries, and depend on pg only', () => {
    const room = all.filter((f) => f.file.startsWith('postgres/'));
    expect(room.some((f) => f.file === 'postgres/index.ts')).toBe(true);
    for (const { file, deps } of room) {
      for (const d of deps) {
        const allowed = d.startsWith('postgres/') || d.startsWith('node:') || ['index.js', 'http/index.js', 'internal/adapter.js', 'pg'].includes(d);
        expect(allowed, `${file} imports ${d}`).toBe(true);
      }
    }
    for (const { file, deps } of all.filter((f) => !f.file.startsWith('postgres/') && !f.file.startsWith('cli/'))) {
      for (const d of deps) expect(d.startsWith('postgres/'), `${file} imports ${d}`).toBe(false);
    }
  });
});
