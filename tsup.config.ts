import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';
import { cli } from './tsup.cli.config.js';

const CORE_ENTRY = resolve(dirname(fileURLToPath(import.meta.url)), 'src/index.ts');

/**
 * The adapter and the testing kit reach the core only through src/index.ts (STYLE.md "Module boundaries"); in
 * the build that import becomes the built core next to them, external (`../index.js` in the ESM entries,
 * `../index.cjs` in the CJS ones), so dist/http/index.{js,cjs} and dist/testing/index.{js,cjs} load
 * dist/index.{js,cjs} instead of carrying a second core. tsup's
 * CJS output has no code splitting, so without this the CJS adapter had its own error classes (not
 * `instanceof` the core's) and its own frozen-chart memory. A relative path, not the package's own name:
 * it resolves the same under an npm alias and in resolvers without package self-reference.
 */
const coreNextToAdapter: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'core-next-to-adapter',
  setup(build) {
    const core = build.initialOptions.format === 'cjs' ? '../index.cjs' : '../index.js';
    build.onResolve({ filter: /(^|\/)index\.js$/ }, (args) => {
      // Importer paths use the platform's separator (backslashes on Windows).
      if (args.kind === 'entry-point' || !/\/src\/(http|testing)\//.test(args.importer.replace(/\\/g, '/'))) return undefined;
      const target = resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts');
      return target === CORE_ENTRY ? { path: core, external: true } : undefined;
    });
  },
};

// Keep this entry list equal to the "exports" map of package.json.
export default defineConfig([{
  entry: { index: 'src/index.ts', 'http/index': 'src/http/index.ts', 'testing/index': 'src/testing/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
  esbuildPlugins: [coreNextToAdapter],
  // The testing kit's peer dependency: the consumer's own fast-check, never a bundled copy.
  external: ['fast-check'],
}, cli]);
