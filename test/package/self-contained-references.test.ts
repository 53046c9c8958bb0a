/**
 * Comments and docs cite only what a reader of this repository or of the published package can open: the
 * FHIR and HL7 standards, RFCs, and the repository's own files. No reference to design notes, specifications
 * or mapping notes kept outside the repository, in the source, the built package (its declarations carry the
 * source's doc comments), the tests, benchmarks, examples or docs.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

/** References to files outside the repository, by path, by name or by section number. */
const OUTSIDE_REFERENCES: readonly RegExp[] = [
  /\.\.\/shared\b/,
  /\bshared\/(spec|reference)\b/,
  /\bDESIGN\.md\b/,
  /\bSTYLE\.md\b/,
  /\bhl7-v2-mapping\b/,
  /\bchart-export-interface\b/,
  /\bcontract\s+(section|§|\d)/i,
  /\bmapping reference\b/i,
];

const TEXT_FILE = /\.(ts|cts|mts|js|cjs|mjs|json|md)$/;

/** Every text file under `dir` (relative to the root), recursively. */
function textFiles(dir: string): string[] {
  const full = join(ROOT, dir);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [dir];
  return readdirSync(full, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? textFiles(join(dir, d.name)) : TEXT_FILE.test(d.name) ? [join(dir, d.name)] : [],
  );
}

/** `file:line: text` for every line of the files that refers outside the repository. */
function outsideReferences(files: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    if (join(ROOT, file) === SELF) continue;
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (OUTSIDE_REFERENCES.some((re) => re.test(line))) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  return found;
}

const GROUPS: [name: string, paths: string[]][] = [
  ['the source (src/)', ['src']],
  ['the built package (dist/, built by npm test)', ['dist']],
  ['the tests, benchmarks and examples', ['test', 'bench', 'examples']],
  ['the docs', ['README.md', 'CHANGELOG.md', 'docs']],
];

describe('references in comments and docs', () => {
  it('should recognise a reference to a file outside the repository', () => {
    const line = ['see ', '..', '/shared/', 'DESIGN', '.md'].join('');
    expect(OUTSIDE_REFERENCES.some((re) => re.test(line))).toBe(true);
    expect(OUTSIDE_REFERENCES.some((re) => re.test(`(${'contract'} 2.2)`))).toBe(true);
    expect(OUTSIDE_REFERENCES.some((re) => re.test('HL7 v2.5.1 chapter 2, section 2.7'))).toBe(false);
  });

  it.each(GROUPS)('should cite nothing outside the repository in %s', (_name, paths) => {
    const files = paths.flatMap(textFiles);
    expect(files.length).toBeGreaterThan(0);
    expect(outsideReferences(files)).toEqual([]);
  });
});
