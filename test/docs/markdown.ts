/** Reading the repository's Markdown as GitHub renders it: fenced code blocks, headings and their anchors, links. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** A fenced code block. */
export interface CodeBlock {
  /** The Markdown file, relative to the repository root. */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The language, the info string's first word (`ts`, `js`, `sh`, …; empty for none). */
  readonly lang: string;
  /** The words of the info string after the language (`runnable`). */
  readonly flags: readonly string[];
  /** The text between the fences, with a final newline. */
  readonly code: string;
}

/** A link whose target is in this repository (a relative path, a path with an anchor, or an anchor alone). */
export interface RelativeLink {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

/** The Markdown split into code blocks and the lines outside them. */
export function parseMarkdown(file: string, text: string): { blocks: CodeBlock[]; prose: { line: number; text: string }[] } {
  const blocks: CodeBlock[] = [];
  const prose: { line: number; text: string }[] = [];
  const lines = text.split('\n');
  let open: { line: number; lang: string; flags: string[]; fence: string; body: string[] } | undefined;
  lines.forEach((line, index) => {
    if (open === undefined) {
      const start = /^(```+|~~~+)\s*([^\s`]*)\s*(.*)$/.exec(line);
      if (start) {
        open = { line: index + 1, lang: start[2] ?? '', flags: (start[3] ?? '').split(/\s+/).filter((w) => w !== ''), fence: start[1] ?? '```', body: [] };
      } else {
        prose.push({ line: index + 1, text: line });
      }
    } else if (line.trim() === open.fence || (line.startsWith(open.fence) && line.slice(open.fence.length).trim() === '')) {
      blocks.push({ file, line: open.line, lang: open.lang, flags: open.flags, code: `${open.body.join('\n')}\n` });
      open = undefined;
    } else {
      open.body.push(line);
    }
  });
  if (open !== undefined) throw new Error(`${file}:${open.line}: code block is not closed`);
  return { blocks, prose };
}

/** GitHub's anchor of a heading text: lowercase, punctuation and symbols dropped, spaces to hyphens. */
export function slugOf(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images show their text
    .trim()
    .toLowerCase();
  return rendered.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of a Markdown text's headings, repeated ones numbered as GitHub does (`x`, `x-1`, `x-2`). */
export function anchorsOf(file: string, text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text: line } of parseMarkdown(file, text).prose) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slugOf(heading[1] ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The links of the prose (inline code left out) whose target is not a URL with a scheme. */
export function relativeLinksOf(file: string, text: string): RelativeLink[] {
  const links: RelativeLink[] = [];
  for (const { line, text: prose } of parseMarkdown(file, text).prose) {
    const withoutCode = prose.replace(/`+[^`]*`+/g, '');
    for (const m of withoutCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = m[1] ?? '';
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      links.push({ file, line, target });
    }
  }
  return links;
}

/**
 * What is wrong with a relative link, or undefined when it resolves: the path must name a file or folder of the
 * repository (never outside it), and an anchor must name a heading of the Markdown file it points to.
 */
export function checkLink(root: string, link: RelativeLink): string | undefined {
  const [path = '', anchor] = link.target.split('#', 2);
  const from = join(root, link.file);
  const target = path === '' ? from : resolve(dirname(from), decodeURI(path));
  const inside = relative(root, target);
  if (inside.startsWith('..') || resolve(root, inside) !== target) return `${link.target} leaves the repository`;
  if (!existsSync(target)) return `${link.target}: no such file`;
  if (anchor === undefined) return undefined;
  if (!statSync(target).isFile() || !target.endsWith('.md')) return `${link.target}: an anchor into a file that is not Markdown`;
  const anchors = anchorsOf(inside, readFileSync(target, 'utf8'));
  return anchors.has(anchor) ? undefined : `${link.target}: no heading with the anchor #${anchor} in ${inside}`;
}

/** A sentence of the prose: its first line and its number of words (inline code counts one). */
export interface Sentence {
  readonly line: number;
  readonly words: number;
  readonly text: string;
}

/**
 * The sentences of the prose, code blocks left out: a paragraph, a list item, a heading and a table cell each
 * end a sentence, and so do `.`, `!` and `?` before white space and a capital, a backtick, a bracket or a digit.
 */
export function sentencesOf(file: string, text: string): Sentence[] {
  const chunks: { line: number; text: string }[] = [];
  let open: { line: number; text: string } | undefined;
  const close = (): void => {
    if (open !== undefined && open.text.trim() !== '') chunks.push(open);
    open = undefined;
  };
  for (const { line, text: raw } of parseMarkdown(file, text).prose) {
    if (raw.startsWith('|')) {
      close();
      if (/^\|[\s:|-]+\|$/.test(raw)) continue;
      for (const cell of raw.replace(/\\\|/g, ' ').split('|')) chunks.push({ line, text: cell });
    } else if (raw.trim() === '' || /^#{1,6}\s/.test(raw) || /^\s*(?:[-*]|\d+\.)\s/.test(raw) || raw.startsWith('<!--')) {
      close();
      if (raw.trim() !== '' && !raw.startsWith('<!--')) open = { line, text: raw.replace(/^\s*(?:[-*]|\d+\.)\s+|^#{1,6}\s+/, '') };
    } else if (open === undefined) {
      open = { line, text: raw };
    } else {
      open.text += ` ${raw}`;
    }
  }
  close();
  return chunks.flatMap(({ line, text: chunk }) =>
    chunk
      .replace(/`+[^`]*`+/g, 'Code')
      .split(/(?<=[.!?])\s+(?=[A-Z`[(\d*])/)
      .map((s) => ({ line, text: s.trim(), words: s.trim() === '' ? 0 : s.trim().split(/\s+/).length }))
      .filter((s) => s.words > 0),
  );
}
