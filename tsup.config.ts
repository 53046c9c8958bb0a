import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';
import { cli } from './tsup.cli.config.js';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), 'src');
/** The core's entries the adapter may import, and where each is built (relative to dist/http/). */
const CORE_ENTRIES = new Map([
  [resolve(SRC, 'index.ts'), '../index'],
  [resolve(SRC, 'internal/adapter.ts'), '../internal/adapter'],
]);

/**
 * The adapter reaches the core only through src/index.ts (its public API) and src/internal/adapter.ts (the
 * core's internals it shares: SHA-256, the ISO order key); in the build those imports become the built files
 * next to it, external (`../index.js` and `../internal/adapter.js` in the ESM adapter, `.cjs` in the CJS
 * one), so dist/http/index.{js,cjs} load the core instead of carrying a second copy. tsup's CJS output has no
 * code splitting, so without this the CJS adapter had its own error classes (not `instanceof` the core's)
 * and its own frozen-chart memory. Relative paths, not the package's own name: they resolve the same under
 * an npm alias and in resolvers without package self-reference. dist/internal/adapter is not in the
 * exports map: not public API.
 */
const coreNextToAdapter: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'core-next-to-adapter',
  setup(build) {
    const extension = build.initialOptions.format === 'cjs' ? '.cjs' : '.js';
    build.onResolve({ filter: /(^|\/)(index|adapter)\.js$/ }, (args) => {
      // Importer paths use the platform's separator (backslashes on Windows).
      if (args.kind === 'entry-point' || !args.importer.replace(/\\/g, '/').includes('/src/http/')) return undefined;
      const built = CORE_ENTRIES.get(resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts'));
      return built === undefined ? undefined : { path: `${built}${extension}`, external: true };
    });
  },
};

// Keep this entry list equal to the "exports" map of package.json.
export default defineConfig([{
  entry: { index: 'src/index.ts', 'http/index': 'src/http/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
  esbuildPlugins: [coreNextToAdapter],
}, {
  // The core's internals shared with the adapter: built, loaded by the adapter by relative path, not exported.
  entry: { 'internal/adapter': 'src/internal/adapter.ts' },
  format: ['esm', 'cjs'],
  dts: false,
  clean: false,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
}, cli]);
