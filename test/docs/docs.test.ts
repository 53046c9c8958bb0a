/**
 * The documentation works as written, for README.md and every docs/*.md:
 * - every relative link resolves to a file of this repository, and every `#anchor` to a heading of its target
 *   (GitHub's anchors);
 * - every ```ts block type-checks as a module of its own under the project's strict tsconfig.json, with
 *   `chart-export`, `chart-export/http`, `chart-export/mllp` and `chart-export/postgres` mapped to src (all blocks in one TypeScript program);
 * - every ```js or ```sh block marked runnable in its info string (```js runnable) runs and exits 0: js with
 *   node from a folder inside the repository, where `chart-export` resolves to the built package (dist) as for
 *   a user; sh with bash -e from the repository root;
 * - every page is short enough to find an answer in (at most 15 KB) and has no sentence of more than
 *   {@link MAX_SENTENCE_WORDS} words (prose, list items and table cells; code left out).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../examples/support/process.js';
import { anchorsOf, checkLink, parseMarkdown, relativeLinksOf, sentencesOf, slugOf, type CodeBlock } from './markdown.js';

const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((f) => `docs/${f}`)];
const TEXTS = new Map(DOCS.map((file) => [file, readFileSync(join(ROOT, file), 'utf8')]));
const BLOCKS: CodeBlock[] = DOCS.flatMap((file) => parseMarkdown(file, TEXTS.get(file) ?? '').blocks);
const RUNNABLE = BLOCKS.filter((b) => b.flags.includes('runnable'));

const where = (b: CodeBlock): string => `${b.file}:${b.line} (\`\`\`${[b.lang, ...b.flags].join(' ')})`;

/**
 * A scratch folder inside the repository (git-ignored), so that `chart-export` resolves by the package's
 * self-reference and `@types/*` from its node_modules; not under node_modules, where self-reference stops.
 */
let scratch = '';
beforeAll(() => {
  scratch = mkdtempSync(join(ROOT, '.docs-test-'));
});
afterAll(() => {
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
});

describe('markdown helpers', () => {
  it("should give GitHub's anchors", () => {
    expect(slugOf('The two commands (from a clone of this repository)')).toBe('the-two-commands-from-a-clone-of-this-repository');
    expect(slugOf('HL7 v2.5.1')).toBe('hl7-v251');
    expect(slugOf('On `node:http`')).toBe('on-nodehttp');
    expect(slugOf('Conformance notes (FHIR R4 4.0.1)')).toBe('conformance-notes-fhir-r4-401');
    expect([...anchorsOf('x.md', '# A\n## B\n```\n# not a heading\n```\n## B\n')]).toEqual(['a', 'b', 'b-1']);
  });

  it('should report links that do not resolve and accept those that do', () => {
    const text = '[ok](docs/hl7-samples.md#sample-output) [bad](docs/nope.md) [anchor](docs/hl7-samples.md#nope) `[code](x.md)` [out](../x) [web](https://example.org)';
    const problems = relativeLinksOf('README.md', text).map((l) => checkLink(ROOT, l));
    expect(problems.map((p) => p === undefined)).toEqual([true, false, false, false]);
  });

  it('should split fenced blocks with their info string', () => {
    const { blocks } = parseMarkdown('x.md', 'a\n```js runnable\nconsole.log(1)\n```\n```ts\nlet x = 1;\n```\n');
    expect(blocks.map((b) => [b.lang, b.flags, b.line, b.code])).toEqual([
      ['js', ['runnable'], 2, 'console.log(1)\n'],
      ['ts', [], 5, 'let x = 1;\n'],
    ]);
  });
});

describe('links', () => {
  it.each(DOCS)('should resolve every relative link and anchor in %s', (file) => {
    const links = relativeLinksOf(file, TEXTS.get(file) ?? '');
    const problems = links.flatMap((l) => {
      const problem = checkLink(ROOT, l);
      return problem === undefined ? [] : [`${l.file}:${l.line}: ${problem}`];
    });
    expect(problems).toEqual([]);
  });

  it('should resolve every relative link and anchor in CHANGELOG.md', () => {
    const links = relativeLinksOf('CHANGELOG.md', readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'));
    expect(links.length).toBeGreaterThan(0);
    expect(links.flatMap((l) => {
      const problem = checkLink(ROOT, l);
      return problem === undefined ? [] : [`${l.file}:${l.line}: ${problem}`];
    })).toEqual([]);
  });

  it('should link every docs/ page from the README', () => {
    const linked = new Set(relativeLinksOf('README.md', TEXTS.get('README.md') ?? '').map((l) => l.target.split('#')[0]));
    expect(DOCS.filter((f) => f !== 'README.md' && !linked.has(f))).toEqual([]);
  });
});

/** The longest page, in bytes (15 KB, counted as 15 000 bytes): a page a stranger reads in two minutes. */
const MAX_PAGE_BYTES = 15_000;
/** The longest sentence, in words: short enough to read aloud. */
const MAX_SENTENCE_WORDS = 60;

describe('readability', () => {
  it('should split text into sentences, list items and cells, leaving code out', () => {
    const text = 'One two. Three `a b c` four.\n- an item\n- another: here\n\n| a b | c |\n|---|---|\n```\nnot counted at all\n```\n';
    expect(sentencesOf('x.md', text).map((s) => s.words)).toEqual([2, 3, 2, 2, 2, 1]);
  });

  it.each(DOCS)('should keep %s at most 15 KB', (file) => {
    expect(Buffer.byteLength(TEXTS.get(file) ?? '')).toBeLessThanOrEqual(MAX_PAGE_BYTES);
  });

  it('should keep every generated API reference page (docs/api) at most 15 KB too', () => {
    const pages = (readdirSync(join(ROOT, 'docs', 'api'), { recursive: true }) as string[]).filter((f) => f.endsWith('.md'));
    expect(pages.length).toBeGreaterThan(100);
    const over = pages.filter((f) => Buffer.byteLength(readFileSync(join(ROOT, 'docs', 'api', f))) > MAX_PAGE_BYTES);
    expect(over).toEqual([]);
  });

  it.each(DOCS)(`should keep every sentence of %s under ${MAX_SENTENCE_WORDS + 1} words`, (file) => {
    const long = sentencesOf(file, TEXTS.get(file) ?? '').filter((s) => s.words > MAX_SENTENCE_WORDS);
    expect(long.map((s) => `${file}:${s.line}: ${s.words} words: ${s.text.slice(0, 80)}…`)).toEqual([]);
  });
});

/** Terms of docs/glossary.md that a page links to the glossary where it first uses them. */
const GLOSSARY_TERMS: readonly (readonly [term: RegExp, anchor: string])[] = [
  [/\bCX\b/, 'cx'],
  [/\bXCN\b/, 'xcn'],
  [/\bXON\b/, 'xon'],
  [/\bHD\b/, 'hd'],
  [/\bPL\b/, 'pl'],
  [/\bSI\b/, 'si'],
  [/\bNM\b/, 'nm'],
  [/\bER7\b/, 'er7'],
  [/\bMLLP\b/, 'mllp'],
  [/\bbdl-1\b/, 'bdl-1'],
  [/\bfails? (?:closed|open)\b|\bfail-(?:closed|open)\b/i, 'fail-closed-fail-open'],
  [/\bexport interface\b/i, 'export-interface'],
];

describe('glossary', () => {
  it.each(DOCS.filter((f) => f !== 'docs/glossary.md'))('should link each glossary term to the glossary where %s first uses it', (file) => {
    const text = TEXTS.get(file) ?? '';
    const anchors = anchorsOf('docs/glossary.md', readFileSync(join(ROOT, 'docs/glossary.md'), 'utf8'));
    const lines = parseMarkdown(file, text).prose.filter((l) => !/^#{1,6}\s/.test(l.text));
    const unlinked = GLOSSARY_TERMS.flatMap(([term, anchor]) => {
      expect(anchors.has(anchor), anchor).toBe(true);
      const first = lines.find((l) => term.test(l.text.replace(/`+[^`]*`+/g, '').replace(/\]\([^)]*\)/g, ']')));
      return first === undefined || first.text.includes('glossary.md') ? [] : [`${file}:${first.line}: ${String(term)}`];
    });
    expect(unlinked).toEqual([]);
  });
});

describe('code blocks', () => {
  it('should type-check every ```ts block as a module under the strict tsconfig.json, in one program', () => {
    const tsBlocks = BLOCKS.filter((b) => b.lang === 'ts' || b.lang === 'typescript');
    expect(tsBlocks.length).toBeGreaterThan(5);
    const dir = join(scratch, 'ts');
    mkdirSync(dir);
    const files = tsBlocks.map((block, i) => {
      const path = join(dir, `block-${i}.ts`);
      // `export {}` makes a block without import or export a module too (top-level await, no shared globals).
      writeFileSync(path, `${block.code}export {};\n`);
      return { path, block };
    });
    const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (p) => ts.sys.readFile(p));
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
    const program = ts.createProgram(
      files.map((f) => f.path),
      {
        ...options,
        noEmit: true,
        types: ['node'],
        paths: {
          'chart-export': [join(ROOT, 'src/index.ts')],
          'chart-export/http': [join(ROOT, 'src/http/index.ts')],
          'chart-export/mllp': [join(ROOT, 'src/mllp/index.ts')],
          'chart-export/postgres': [join(ROOT, 'src/postgres/index.ts')],
        },
      },
    );
    const byPath = new Map(files.map((f) => [f.path, f.block]));
    const messages = ts.getPreEmitDiagnostics(program).map((d) => {
      const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      if (d.file === undefined || d.start === undefined) return `TS${d.code}: ${text}`;
      const { line } = d.file.getLineAndCharacterOfPosition(d.start);
      const block = byPath.get(d.file.fileName);
      const at = block === undefined ? `${d.file.fileName}:${line + 1}` : `${block.file}:${block.line + 1 + line}`;
      return `${at}: TS${d.code}: ${text}`;
    });
    expect(messages).toEqual([]);
  }, 120_000);

  it('should mark only js and sh blocks runnable', () => {
    expect(RUNNABLE.length).toBeGreaterThan(0);
    expect(RUNNABLE.filter((b) => b.lang !== 'js' && b.lang !== 'sh').map(where)).toEqual([]);
  });

  it.each(RUNNABLE.map((b) => [where(b), b] as const))('should run %s', async (_name, block) => {
    ensureBuilt();
    const dir = mkdtempSync(join(scratch, 'run-'));
    const path = join(dir, block.lang === 'js' ? 'block.mjs' : 'block.sh');
    writeFileSync(path, block.code);
    const [command, args, cwd] = block.lang === 'js' ? [process.execPath, [path], dir] : ['bash', ['-e', path], ROOT];
    const result = await new Promise<{ code: number | null; output: string }>((done) => {
      execFile(command, args, { cwd, timeout: 30_000, encoding: 'utf8' }, (error, stdout, stderr) => {
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, output: `${stdout}${stderr}` });
      });
    });
    expect(result.code, result.output).toBe(0);
  }, 60_000);
});
