/**
 * What the published tarball weighs and carries (`npm test` builds dist first): at most MAX_PACKED_BYTES packed, no
 * source maps, the service command's demo chart carried as its generator (dist/demo-chart.js) whose document
 * equals examples/data/demo-chart.json, one copy of the core (the adapter and the command import the built core next to
 * them), and a `typesVersions` entry for every subpath so `moduleResolution: node10` finds its declarations.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_ENTRIES } from '../../tsup.shared.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The most the packed tarball may weigh, in bytes (npm's "package size", 1 kB = 1000 bytes). 300 kB before the
 * population-scale work: Bulk Data export and streaming (about 36 kB packed), chart-export/mllp (about 18 kB) and
 * chart-export/postgres (about 13 kB); 400 kB after them, 420 kB since the speed work of issue 18 (request ids, the
 * Node listener's call objects, the chart check's length bounds: about 2 kB) left less than 1 kB of room; 445 kB
 * since names are no longer minified (437.5 kB: 29 kB more, for no `Object.defineProperty` on every closure made
 * per chart or per request; tsup.shared.ts).
 */
const MAX_PACKED_BYTES = 445_000;

interface PackInfo {
  readonly filename: string;
  readonly size: number;
  readonly files: readonly { readonly path: string; readonly size: number }[];
}

let tmp = '';
let info: PackInfo;
let tarballBytes = 0;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'chart-export-tarball-'));
  const out = execFileSync('npm', ['pack', '--pack-destination', tmp, '--ignore-scripts', '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  [info] = JSON.parse(out) as [PackInfo];
  tarballBytes = statSync(join(tmp, info.filename)).size;
}, 120_000);

afterAll(() => {
  if (tmp !== '') rmSync(tmp, { recursive: true, force: true });
});

/** Every file under dist/, relative to the repository root. */
function distFiles(dir = join(ROOT, 'dist')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? distFiles(join(dir, d.name)) : [join(dir, d.name).slice(ROOT.length)],
  );
}

describe('published tarball', () => {
  it(`should weigh at most ${MAX_PACKED_BYTES / 1000} kB packed`, () => {
    const largest = [...info.files].sort((a, b) => b.size - a.size).slice(0, 5).map((f) => `${f.path} ${f.size}`);
    expect(tarballBytes, `packed ${tarballBytes} bytes; largest files: ${largest.join(', ')}`).toBeLessThanOrEqual(MAX_PACKED_BYTES);
    expect(tarballBytes).toBe(info.size);
  });

  it('should ship no source maps and no source map references', () => {
    expect(info.files.filter((f) => f.path.endsWith('.map'))).toEqual([]);
    for (const file of distFiles().filter((f) => /\.c?js$/.test(f))) {
      expect(readFileSync(join(ROOT, file), 'utf8'), file).not.toContain('sourceMappingURL');
    }
  });

  it('should carry the demo chart as its generator, whose document equals examples/data/demo-chart.json', async () => {
    const file = readFileSync(join(ROOT, 'examples/data/demo-chart.json'), 'utf8');
    // The module the command imports (dist/cli.js loads ./demo-chart.js; checked with the other imports below).
    const generator = (await import(pathToFileURL(join(ROOT, 'dist/demo-chart.js')).href)) as {
      generateDemoChart: () => unknown;
      formatChartDocument: (value: unknown) => string;
    };
    const document = generator.generateDemoChart();
    expect(document).toStrictEqual(JSON.parse(file));
    expect(`${generator.formatChartDocument(document)}\n`).toBe(file);
    // Not also inlined as data: the command and the generator are code only, a small part of the document.
    const shipped = readFileSync(join(ROOT, 'dist/cli.js'), 'utf8').length + readFileSync(join(ROOT, 'dist/demo-chart.js'), 'utf8').length;
    expect(shipped).toBeLessThan(file.length / 5);
  });

  it('should load one core: the adapter and the command import the built entries next to them', () => {
    const imports = (file: string): string[] =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/(?:\bfrom\s*|\brequire\()\s*["']([^"']+)["']/g)].map((m) => m[1] as string);
    // The adapter: the core and the core's internals it shares (dist/internal/adapter, not an entry of the package).
    // The ESM build also shares chunks between its entries (esbuild's helpers, code of both the core and its
    // internals): one copy all the same.
    const notChunk = (s: string): boolean => !/^\.\.?\/chunk-[\w-]+\.js$/.test(s);
    expect(new Set(imports('dist/http/index.js').filter(notChunk))).toEqual(new Set(['../index.js', '../internal/adapter.js']));
    expect(new Set(imports('dist/http/index.cjs'))).toEqual(new Set(['../index.cjs', '../internal/adapter.cjs']));
    const cliLocal = imports('dist/cli.js').filter((s) => s.startsWith('.'));
    expect(new Set(cliLocal)).toEqual(new Set(['./index.js', './http/index.js', './mllp/index.js', './demo-chart.js']));
    // The MLLP client: the core's entry and Node's modules only.
    const local = (file: string): string[] => imports(file).filter((s) => s.startsWith('.'));
    expect(new Set(local('dist/mllp/index.js').filter(notChunk))).toEqual(new Set(['../index.js']));
    expect(new Set(local('dist/mllp/index.cjs'))).toEqual(new Set(['../index.cjs']));
    // The core's code is in the core's files only: a core class is not declared again elsewhere. The output is
    // minified (whitespace), so the class is found by its `name` field (`name = 'ChartExportError'` in the source).
    const declaresCoreClass = /\bname\s*=\s*["']ChartExportError["']/;
    const esmCore = ['dist/index.js', ...distFiles().filter((f) => /^\/?dist\/chunk-[^/]+\.js$/.test(f))];
    expect(esmCore.some((file) => declaresCoreClass.test(readFileSync(join(ROOT, file), 'utf8')))).toBe(true);
    expect(readFileSync(join(ROOT, 'dist/index.cjs'), 'utf8')).toMatch(declaresCoreClass);
    for (const file of ['dist/http/index.js', 'dist/http/index.cjs', 'dist/mllp/index.js', 'dist/mllp/index.cjs', 'dist/cli.js', 'dist/demo-chart.js']) {
      expect(readFileSync(join(ROOT, file), 'utf8'), file).not.toMatch(declaresCoreClass);
    }
  });

  it('should build an entry for every subpath of the exports map', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    for (const subpath of Object.keys(pkg.exports).filter((k) => k !== './package.json')) {
      const output = subpath === '.' ? 'index' : `${subpath.slice(2)}/index`;
      expect(Object.keys(LIBRARY_ENTRIES), subpath).toContain(output);
      expect(info.files.map((f) => f.path), subpath).toEqual(expect.arrayContaining([`dist/${output}.js`, `dist/${output}.cjs`, `dist/${output}.d.ts`, `dist/${output}.d.cts`]));
    }
  });

  it('should map every subpath of the exports map in typesVersions to its declarations (moduleResolution node10)', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, { import?: { types?: string } } | string>;
      typesVersions?: Record<string, Record<string, string[]>>;
    };
    const subpaths = Object.entries(pkg.exports).filter(([k]) => k !== '.' && k !== './package.json');
    expect(subpaths.length).toBeGreaterThan(0);
    const expected = Object.fromEntries(
      subpaths.map(([k, v]) => [k.slice(2), [typeof v === 'string' ? v : (v.import?.types ?? '')]]),
    );
    expect(pkg.typesVersions).toEqual({ '*': expected });
    for (const [types] of Object.values(expected)) expect(info.files.map((f) => `./${f.path}`)).toContain(types);
  });
});
