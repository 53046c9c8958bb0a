/**
 * The snippets of docs/redis-rate-limits.md compile: every ```ts block, type-checked with the real `ioredis`
 * and `redis` declarations and `chart-export/http` mapped to the sources, so the documented client settings
 * and options cannot drift from the clients' and the limiter's types.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What the snippets take from the surrounding application. */
const PREAMBLE = `import type { ChartDataSource, KeyStore, RateLimiter } from 'chart-export/http';
declare const dataSource: ChartDataSource;
declare const keyStore: KeyStore;
declare const myClient: { send(args: string[]): Promise<unknown> };
`;

describe('docs/redis-rate-limits.md', () => {
  it('should have snippets that compile against both clients and the limiter', () => {
    // Arrange: each block as its own module next to this test, so 'ioredis' and 'redis' resolve.
    const text = readFileSync(join(ROOT, 'docs/redis-rate-limits.md'), 'utf8');
    const blocks = [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    // A block that uses a limiter without making one gets one declared.
    const source = (b: string): string => `${PREAMBLE}${/const rateLimiter\b/.test(b) ? '' : 'declare const rateLimiter: RateLimiter;\n'}${b}\nexport {};\n`;
    const files = new Map(blocks.map((b, i) => [join(ROOT, `test/http/docs-snippet-${i}.ts`), source(b)]));
    const options: ts.CompilerOptions = {
      strict: true,
      exactOptionalPropertyTypes: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: ['node'],
      skipLibCheck: true,
      baseUrl: ROOT,
      paths: { 'chart-export/http': ['src/http/index.ts'], 'chart-export': ['src/index.ts'] },
    };
    const host = ts.createCompilerHost(options);
    const { getSourceFile, fileExists, readFile } = host;
    host.fileExists = (f) => files.has(f) || fileExists.call(host, f);
    host.readFile = (f) => files.get(f) ?? readFile.call(host, f);
    host.getSourceFile = (f, language, ...rest) => {
      const virtual = files.get(f);
      return virtual === undefined ? getSourceFile.call(host, f, language, ...rest) : ts.createSourceFile(f, virtual, language);
    };
    // Act
    const program = ts.createProgram([...files.keys()], options, host);
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file === undefined || files.has(d.file.fileName))
      .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    // Assert
    expect(problems).toEqual([]);
  });
});
