/**
 * Checks of the built package as a consumer sees it: `npm test` builds `dist` first, then this suite
 * loads every entry of the exports map with both `import` and `require` in a fresh Node process, and
 * checks what `npm pack` would publish.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as {
  name: string;
  exports: Record<string, unknown>;
  files: string[];
};
const entries = Object.keys(pkg.exports).filter((k) => k !== './package.json');

/** Load a specifier in a fresh Node process (real Node resolution, self-reference by package name). */
function exportNames(specifier: string, mode: 'import' | 'require'): string[] {
  const script =
    mode === 'import'
      ? `import(${JSON.stringify(specifier)}).then((m) => console.log(JSON.stringify(Object.keys(m).filter((k) => k !== 'default' && k !== 'module.exports').sort())))`
      : `console.log(JSON.stringify(Object.keys(require(${JSON.stringify(specifier)})).sort()))`;
  const out = execFileSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' });
  return JSON.parse(out) as string[];
}

/** The names a built declaration file exports (values and types), as a consumer's compiler sees them. */
function declarationNames(file: string): string[] {
  const program = ts.createProgram([file], {
    noEmit: true,
    types: [],
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (symbol === undefined) throw new Error(`cannot read ${file}`);
  return checker.getExportsOfModule(symbol).map((s) => s.name).sort();
}

/** The built files of an exports-map entry (`.` → dist/index, `./http` → dist/http/index). */
const builtBase = (entry: string): string => `${root}/dist/${entry === '.' ? '' : `${entry.slice(2)}/`}index`;

describe('built package', () => {
  it('should have been built before the tests run', () => {
    expect(existsSync(`${root}/dist/index.js`)).toBe(true);
    expect(existsSync(`${root}/dist/index.cjs`)).toBe(true);
    expect(existsSync(`${root}/dist/index.d.ts`)).toBe(true);
    expect(existsSync(`${root}/dist/index.d.cts`)).toBe(true);
  });

  it.each(entries)('should expose the same API through import and require for %s', (entry) => {
    const specifier = entry === '.' ? pkg.name : `${pkg.name}/${entry.slice(2)}`;
    const esm = exportNames(specifier, 'import');
    const cjs = exportNames(specifier, 'require');
    expect(esm.length).toBeGreaterThan(0);
    expect(cjs).toEqual(esm);
    // Every export change is seen in review.
    expect(esm).toMatchSnapshot();
  });

  it.each(entries)('should declare exactly these names (values and types) in the .d.ts of %s', (entry) => {
    const names = declarationNames(`${builtBase(entry)}.d.ts`);
    expect(declarationNames(`${builtBase(entry)}.d.cts`)).toEqual(names);
    // Every value export is declared.
    const values = exportNames(entry === '.' ? pkg.name : `${pkg.name}/${entry.slice(2)}`, 'import');
    expect(names).toEqual(expect.arrayContaining(values));
    // Every API change, types included, is seen in review.
    expect(names).toMatchSnapshot();
  });

  it('should load the core and its shared internals next to the adapter, not carry a copy', () => {
    const esm = readFileSync(`${root}/dist/http/index.js`, 'utf8');
    const cjs = readFileSync(`${root}/dist/http/index.cjs`, 'utf8');
    // Minified: any spacing; a function is found by the name it keeps (`a(sha256Impl, "sha256")`).
    expect(esm).toMatch(/from\s*"\.\.\/internal\/adapter\.js"/);
    expect(esm).toMatch(/from\s*"\.\.\/index\.js"/);
    expect(cjs).toContain('require("../internal/adapter.cjs")');
    expect(cjs).toContain('require("../index.cjs")');
    const declaresSha256 = /function sha256\b|,\s*"sha256"\)/;
    expect(readFileSync(`${root}/dist/internal/adapter.cjs`, 'utf8')).toMatch(declaresSha256);
    for (const text of [esm, cjs]) expect(text).not.toMatch(declaresSha256);
    // Not public: neither in the exports map nor named by the adapter's declarations.
    expect(JSON.stringify(pkg.exports)).not.toContain('internal');
    for (const dts of ['index.d.ts', 'index.d.cts']) expect(readFileSync(`${root}/dist/http/${dts}`, 'utf8')).not.toContain('internal/adapter');
  });

  it('should keep the core free of Node-only imports', () => {
    const core = readFileSync(`${root}/dist/index.js`, 'utf8');
    expect(core).not.toMatch(/from\s*['"](node:|fs|path|http|crypto|buffer)['"]/);
    expect(core).not.toMatch(/require\(['"]node:/);
    expect(core).not.toMatch(/\bBuffer\./);
  });

  it('should publish only dist, README, CHANGELOG, LICENSE and package.json', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [info] = JSON.parse(out) as [{ files: { path: string }[] }];
    const paths = info.files.map((f) => f.path);
    for (const p of paths) {
      expect(p).toMatch(/^(dist\/.+|README\.md|CHANGELOG\.md|LICENSE|package\.json)$/);
    }
    expect(paths).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'LICENSE', 'package.json', 'dist/index.js']));
  });
});
