// @ts-check
/**
 * ESLint (flat config): the recommended JavaScript and typescript-eslint rules (syntax only, no type
 * information, so `npm run lint` stays fast), the module boundaries of the source as import rules, size limits
 * for src/, and a reason on every `eslint-disable` comment.
 */
import comments from '@eslint-community/eslint-plugin-eslint-comments/configs';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// ---------------------------------------------------------------------------------------------------------
// Module boundaries (also checked by test/package/boundaries.test.ts). no-restricted-imports matches the
// import specifier as written, so each rule is a regular expression over relative specifiers; a file's depth
// below src/ tells how many `../` lead back to src/.
// ---------------------------------------------------------------------------------------------------------

/** The folders of src/ that are not the core: the HTTP adapter, the service command, test helpers, the MLLP client, PostgreSQL. */
const NOT_CORE = ['http', 'cli', 'testing', 'mllp', 'postgres'];

/** `../` repeated `n` times (`./` for 0): the way from a file `n` folders below src/ back to src/. */
const up = (n) => (n === 0 ? '\\./' : '(\\.\\./)'.concat(`{${n}}`));

/** The core: no import of the adapter, the command or test helpers, and no Node API. */
const CORE_PATTERNS = [
  {
    regex: `^(\\./|(\\.\\./)+)(${NOT_CORE.join('|')})(/|\\.js$|$)`,
    message: 'The core (src minus src/http, src/cli, src/testing, src/mllp) never imports the adapter, the service command, test helpers or the MLLP client.',
  },
  { regex: '^node:', message: 'The core uses no Node-only API, so it runs in browsers and edge runtimes.' },
];

/** model/ imports only model/. */
const MODEL_PATTERNS = [{ regex: '^\\.\\./', message: 'src/model holds the chart types only and imports nothing outside src/model.' }];

/** fhir/ and hl7/ do not import each other. */
const apart = (other) => [{ regex: `^(\\.\\./)+${other}(/|$)`, message: 'src/fhir and src/hl7 do not import each other; shared code goes to src/internal.' }];

/**
 * For a layer `dir` (one folder below src/) that may reach the rest of src/ only through `entries` (paths
 * below src/, without `.js`): one config per folder depth, since `../` counts differ. Specifiers that leave src/
 * (the command's package.json and demo chart) are not restricted.
 */
function throughEntries(dir, entries, message) {
  return [0, 1, 2, 3].map((depth) => ({
    name: `boundaries/${dir}/depth-${depth}`,
    files: [`src/${dir}/${'*/'.repeat(depth)}*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: `^${up(depth + 1)}(?!\\.\\./)(?!(${entries.join('|')})\\.js$)(?!${dir}/)`, message }] },
      ],
    },
  }));
}

const boundaries = [
  {
    name: 'boundaries/core',
    files: ['src/**/*.ts'],
    ignores: NOT_CORE.map((d) => `src/${d}/**`),
    rules: { 'no-restricted-imports': ['error', { patterns: CORE_PATTERNS }] },
  },
  { name: 'boundaries/model', files: ['src/model/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [...CORE_PATTERNS, ...MODEL_PATTERNS] }] } },
  { name: 'boundaries/fhir', files: ['src/fhir/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [...CORE_PATTERNS, ...apart('hl7')] }] } },
  { name: 'boundaries/hl7', files: ['src/hl7/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [...CORE_PATTERNS, ...apart('fhir')] }] } },
  // The adapter reaches the core as a third-party adapter would, plus its one door to shared internals.
  ...throughEntries(
    'http',
    ['index', 'internal/adapter'],
    'src/http imports the core only through src/index.ts (and src/internal/adapter.ts for shared internals).',
  ),
  // The MLLP client (Node only) reaches the core through its public entry, as a third-party package would.
  ...throughEntries('mllp', ['index'], 'src/mllp imports the core only through src/index.ts.'),
  // The service command uses the public entries only.
  ...throughEntries(
    'cli',
    ['index', 'http/index', 'mllp/index', 'postgres/index'],
    'src/cli imports the core, the adapter, the MLLP client and chart-export/postgres only through src/index.ts, src/http/index.ts, src/mllp/index.ts and src/postgres/index.ts.',
  ),
  // chart-export/postgres: the core and the adapter through their entries, plus the shared internals (the ISO order key).
  ...throughEntries(
    'postgres',
    ['index', 'http/index', 'internal/adapter'],
    'src/postgres imports the core and the adapter only through src/index.ts, src/http/index.ts and src/internal/adapter.ts.',
  ),
];

// ---------------------------------------------------------------------------------------------------------

export default defineConfig(
  { name: 'ignores', ignores: ['dist/**', 'coverage/**', 'node_modules/**'] },
  {
    name: 'lint-options',
    linterOptions: { reportUnusedDisableDirectives: 'error', reportUnusedInlineConfigs: 'error' },
  },
  { ...js.configs.recommended, files: ['**/*.{ts,mjs,js}'] },
  ...tseslint.configs.recommended.map((config) => ({ ...config, files: ['**/*.ts'] })),
  comments.recommended,
  {
    name: 'eslint-comments',
    rules: {
      // Every remaining disable comment says why: `// eslint-disable-next-line rule -- reason`.
      '@eslint-community/eslint-comments/require-description': 'error',
    },
  },
  {
    name: 'globals',
    files: ['test/**', 'bench/**', 'examples/**', 'scripts/**', '*.config.{js,ts}', 'tsup.shared.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    name: 'typescript',
    files: ['**/*.ts'],
    rules: {
      // As TypeScript's noUnusedParameters: a leading underscore marks a parameter kept for its position.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    name: 'src-size',
    files: ['src/**/*.ts'],
    // Counted like `wc -l`: no file in src/ over 400 lines, no function over 80. Data-table files may be exempted
    // here by name, with the reason (none is today).
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false, IIFEs: true }],
    },
  },
  ...boundaries,
);
