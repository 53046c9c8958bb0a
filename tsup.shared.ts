import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, posix, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Options } from 'tsup';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

const ROOT = dirname(fileURLToPath(import.meta.url));

/**
 * The library's build entries (output name → source): one per subpath of the "exports" map of package.json
 * (test/package/tarball.test.ts checks it), plus any non-public entry the public ones import.
 */
export const LIBRARY_ENTRIES: Readonly<Record<string, string>> = {
  index: 'src/index.ts',
  'http/index': 'src/http/index.ts',
  'testing/index': 'src/testing/index.ts',
  'mllp/index': 'src/mllp/index.ts',
  'postgres/index': 'src/postgres/index.ts',
  // Not public (not in the exports map): the core's internals the adapter shares (SHA-256, the ISO order key),
  // loaded by the adapter by relative path instead of a second copy.
  'internal/adapter': 'src/internal/adapter.ts',
};

/** The entries of the exports map (every library entry but the internal one), the ones with declarations. */
const PUBLIC_ENTRIES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(LIBRARY_ENTRIES).filter(([out]) => !out.startsWith('internal/')),
);

/** The entry (output name) whose source folder holds `file`: the one with the deepest folder. */
function ownerOf(file: string, entries: Readonly<Record<string, string>>): string | undefined {
  let best: { dir: string; out: string } | undefined;
  for (const [out, source] of Object.entries(entries)) {
    const dir = dirname(resolve(ROOT, source));
    const inside = file === dir || file.startsWith(dir + sep);
    if (inside && (best === undefined || dir.length > best.dir.length)) best = { dir, out };
  }
  return best?.out;
}

/**
 * An import of a library entry's source from another entry (the adapter importing src/index.ts, the service
 * command importing src/index.ts or src/http/index.ts) becomes an external import of that entry's built file,
 * relative to the importer's output (`../index.js` from dist/http/index.js, `../index.cjs` in the CJS build).
 * So dist/http/index.{js,cjs} and the service command load dist/index.{js,cjs} instead of carrying a second
 * core: tsup's CJS output has no code splitting, and without this the CJS adapter had its own error classes (not
 * `instanceof` the core's) and its own frozen-chart memory, and the command carried a third copy. A relative
 * path, not the package's own name: it resolves the same under an npm alias and in resolvers without package
 * self-reference.
 */
export function importBuiltEntries(entries: Readonly<Record<string, string>> = LIBRARY_ENTRIES): EsbuildPlugin {
  const outputBySource = new Map(Object.entries(entries).map(([out, source]) => [resolve(ROOT, source), out]));
  return {
    name: 'import-built-entries',
    setup(build) {
      const ext = build.initialOptions.format === 'cjs' ? '.cjs' : '.js';
      const ownEntries = (build.initialOptions.entryPoints ?? {}) as Record<string, string>;
      build.onResolve({ filter: /^\.{1,2}\// }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        // Importer paths use the platform's separator (backslashes on Windows); resolve() keeps to it.
        const target = resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts');
        const targetOutput = outputBySource.get(target);
        const owner = ownerOf(args.importer, ownEntries);
        // The core importing its own modules (even src/index.ts) stays bundled.
        if (targetOutput === undefined || owner === undefined || owner === targetOutput) return undefined;
        const path = posix.relative(posix.dirname(owner), targetOutput);
        return { path: (path.startsWith('.') ? path : `./${path}`) + ext, external: true };
      });
    },
  };
}

/**
 * Writes the ESM declaration of every entry as one line re-exporting its CJS declaration
 * (`export * from './index.cjs';` in dist/index.d.ts): ESM may import CommonJS, so TypeScript gives an
 * `import` the same types under every `moduleResolution`, and the package carries the declarations once
 * instead of twice (they are a fifth of its packed size).
 */
function writeEsmDeclarations(entries: Readonly<Record<string, string>>): EsbuildPlugin {
  return {
    name: 'write-esm-declarations',
    setup(build) {
      build.onEnd((result) => {
        const outdir = build.initialOptions.outdir;
        if (result.errors.length > 0 || outdir === undefined) return;
        for (const out of Object.keys(entries)) {
          const file = resolve(outdir, `${out}.d.ts`);
          mkdirSync(dirname(file), { recursive: true });
          writeFileSync(file, `export * from './${posix.basename(out)}.cjs';\n`);
        }
      });
    },
  };
}

/** The minification of every build: whitespace and syntax, not names (see {@link library}). */
export const MINIFY = { minifyWhitespace: true, minifySyntax: true } as const satisfies Options;

/**
 * The library: every entry as ESM and CJS, the type declarations written once (CJS, `.d.cts`) with one-line ESM
 * declarations re-exporting them. Whitespace and syntax minified; names not (`MINIFY`): every function, class
 * and local keeps the name it has in the source, so a stack trace names the functions it went through
 * (`at prepareMessage`, `at buildAdtA08`). Minifying names too cost 28 kB less packed, but then names had to be
 * restored by esbuild's `keepNames`, which defines `name` on every function object as it is created: a closure
 * made per chart or per request paid an `Object.defineProperty` each time, which slowed the NDJSON export of
 * small charts by 6–29 % (docs/performance-history.md). No source maps: maps would triple the
 * package size or, without their sources, point at files the package does not ship. The package's size limit
 * is in test/package/tarball.test.ts. Two builds that run together: the first cleans dist/.
 */
export const library: Options[] = [
  {
    entry: { ...LIBRARY_ENTRIES },
    format: ['esm'],
    dts: false,
    clean: true,
    sourcemap: false,
    ...MINIFY,
    target: 'es2022',
    platform: 'neutral',
    // The peer dependencies: the consumer's own fast-check (the testing kit) and pg (chart-export/postgres),
    // never a bundled copy; node: built-ins (chart-export/postgres is Node only) stay imports.
    external: ['fast-check', 'pg', /^node:/],
    esbuildPlugins: [importBuiltEntries(), writeEsmDeclarations(PUBLIC_ENTRIES)],
  },
  {
    entry: { ...LIBRARY_ENTRIES },
    format: ['cjs'],
    // Declarations of the public entries only: the adapter's declarations do not refer to its internals.
    dts: { entry: PUBLIC_ENTRIES },
    clean: false,
    sourcemap: false,
    ...MINIFY,
    target: 'es2022',
    platform: 'neutral',
    external: ['fast-check', 'pg', /^node:/],
    esbuildPlugins: [importBuiltEntries()],
  },
];
