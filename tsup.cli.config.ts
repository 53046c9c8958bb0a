import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';
import { defineConfig, type Options } from 'tsup';
import { importBuiltEntries, library } from './tsup.shared.js';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * The demo chart document (examples/data/demo-chart.json, 736 KB of JSON) goes into the command
 * Brotli-compressed (about 20 KB, base64 in the bundle) instead of inlined as a 580 KB object literal; the
 * command decompresses it with node:zlib when it loads and parses the exact bytes of the file. The command's
 * source still imports the JSON file.
 */
const compressedDemoChart: EsbuildPlugin = {
  name: 'compressed-demo-chart',
  setup(build) {
    build.onLoad({ filter: /[\\/]examples[\\/]data[\\/]demo-chart\.json$/ }, (args) => {
      const bytes = readFileSync(args.path);
      const compressed = brotliCompressSync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      });
      const contents = [
        "import { Buffer } from 'node:buffer';",
        "import { brotliDecompressSync } from 'node:zlib';",
        `const COMPRESSED_DEMO_CHART = ${JSON.stringify(compressed.toString('base64'))};`,
        "export default JSON.parse(brotliDecompressSync(Buffer.from(COMPRESSED_DEMO_CHART, 'base64')).toString('utf8'));",
      ].join('\n');
      return { contents, loader: 'js' };
    });
  },
};

/**
 * The service command (package.json "bin", `npm start`): Node-only, so it is built on its own as one ESM file
 * with the demo chart embedded (compressed); it is not an entry of the exports map and ships no types or CJS
 * copy. It loads the library from the built entries next to it (dist/index.js, dist/http/index.js) instead of
 * carrying its own copy. `npm run build` builds it with the library (tsup.config.ts); `npm start` builds only
 * the library's ESM files and this, in a few seconds.
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
  esbuildPlugins: [importBuiltEntries(), compressedDemoChart],
};

// `npm start`: the library's ESM files (no declarations) and the command.
export default defineConfig([{ ...library[0], clean: false, esbuildPlugins: [importBuiltEntries()] }, cli]);
