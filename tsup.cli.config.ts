import { defineConfig, type Options } from 'tsup';

/**
 * The service command (package.json "bin", `npm start`): Node-only, so it is built on its own as one ESM file
 * with the demo chart inlined; it is not an entry of the exports map and ships no types or CJS copy.
 * `npm run build` builds it with the library (tsup.config.ts); `npm start` builds only this, in about a second.
 */
export const cli: Options = {
  entry: { cli: 'src/cli/main.ts' },
  format: ['esm'],
  dts: false,
  clean: false, // the library build cleans dist/
  sourcemap: false,
  splitting: false,
  minifyWhitespace: true,
  target: 'node20',
  platform: 'node',
};

export default defineConfig(cli);
