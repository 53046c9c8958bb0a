import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';
import pkg from './package.json' with { type: 'json' };
import { cli } from './tsup.cli.config.js';

const CORE_ENTRY = resolve(dirname(fileURLToPath(import.meta.url)), 'src/index.ts');

/**
 * The adapter reaches the core only through src/index.ts (STYLE.md "Module boundaries"); in the build that
 * import becomes the package's own name, external, so dist/http/index.{js,cjs} load dist/index.{js,cjs}
 * instead of carrying a second core. tsup's CJS output has no code splitting, so without this the CJS
 * adapter had its own error classes (not `instanceof` the core's) and its own frozen-chart memory.
 * Node resolves the self-reference through the exports map, for `import` and `require` alike.
 */
const coreBySelfReference: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'core-by-self-reference',
  setup(build) {
    build.onResolve({ filter: /(^|\/)index\.js$/ }, (args) => {
      if (args.kind === 'entry-point' || !args.importer.includes('/src/http/')) return undefined;
      const target = resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts');
      return target === CORE_ENTRY ? { path: pkg.name, external: true } : undefined;
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
  esbuildPlugins: [coreBySelfReference],
}, cli]);
