import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';
import { MINIFY, importBuiltEntries, library } from './tsup.shared.js';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/** The demo chart's generator (pure: no file access, no clock), an entry of the command's build. */
const DEMO_CHART_GENERATOR = resolve(dirname(fileURLToPath(import.meta.url)), 'examples/data/demo-chart-generator.mjs');

/**
 * The demo chart document (examples/data/demo-chart.json, 736 KB of JSON) goes into the package as the
 * deterministic code that generates it (dist/demo-chart.js, about 14 KB gzipped) instead of as data: a 580 KB
 * object literal inlined, or the Brotli-compressed file (27 KB gzipped as base64). The command's source still
 * imports the JSON file; here that import becomes a module whose default export is `generateDemoChart()`, run
 * once when the command loads (about 40 ms), and the generator is loaded from dist/demo-chart.js next to the
 * command. test/package/tarball.test.ts checks that dist/demo-chart.js generates a document equal to
 * examples/data/demo-chart.json, and examples/data/generate-demo-chart.mjs --check that the file is up to date.
 */
const generatedDemoChart: EsbuildPlugin = {
  name: 'generated-demo-chart',
  setup(build) {
    build.onLoad({ filter: /[\\/]examples[\\/]data[\\/]demo-chart\.json$/ }, () => ({
      contents: "import { generateDemoChart } from 'demo-chart-generator';\nexport default generateDemoChart();\n",
      loader: 'js',
    }));
    build.onResolve({ filter: /^demo-chart-generator$/ }, () => ({ path: './demo-chart.js', external: true }));
  },
};

/**
 * The service command (package.json "bin", `npm start`): Node-only, so it is built on its own as one ESM file
 * with the demo chart's generator next to it (dist/demo-chart.js); neither is an entry of the exports map, and
 * they ship no types or CJS copy. It loads the library from the built entries next to it (dist/index.js,
 * dist/http/index.js) instead of carrying its own copy. Minified like the library (`MINIFY`: whitespace and syntax, not names). `npm run build` builds it with the library (tsup.config.ts); `npm start` builds only
 * the library's ESM files and this, in a few seconds.
 */
export const cli: Options = {
  entry: { cli: 'src/cli/main.ts', 'demo-chart': DEMO_CHART_GENERATOR },
  format: ['esm'],
  dts: false,
  clean: false, // the library build cleans dist/
  sourcemap: false,
  splitting: false,
  ...MINIFY,
  target: 'node20',
  platform: 'node',
  esbuildPlugins: [importBuiltEntries(), generatedDemoChart],
};

// `npm start`: the library's ESM files (no declarations) and the command.
export default defineConfig([{ ...library[0], clean: false, esbuildPlugins: [importBuiltEntries()] }, cli]);
