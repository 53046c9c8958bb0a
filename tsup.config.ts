import { defineConfig, type Options } from 'tsup';

/**
 * The service command (package.json "bin", `npm start`): Node-only, so it is built on its own as one ESM file
 * with the demo chart inlined; it is not an entry of the exports map and ships no types or CJS copy.
 */
const cli: Options = {
  entry: { 'http/cli': 'src/http/cli.ts' },
  format: ['esm'],
  dts: false,
  clean: false, // the library build cleans dist/
  sourcemap: false,
  splitting: false,
  minifyWhitespace: true,
  target: 'node20',
  platform: 'node',
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
}, cli]);
