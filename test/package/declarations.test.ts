/**
 * The public declarations as an editor shows them: every export of `chart-export`, `chart-export/http`,
 * `chart-export/testing` and `chart-export/postgres` has hover docs (and every export of the testing kit an `@example`), and so does every
 * member of an exported interface, class or object type; every optional property is declared
 * `prop?: T | undefined` (docs/api.md, "Types"), so a consumer with
 * exactOptionalPropertyTypes may pass a value read from another optional property (`{ code: score.code }`).
 * Every property of the chart model (`src/model`) also carries an `@example` (docs/chart-model.md).
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { strictProgram } from '../support/typescript.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRIES = [`${ROOT}src/index.ts`, `${ROOT}src/http/index.ts`, `${ROOT}src/testing/index.ts`, `${ROOT}src/postgres/index.ts`];
const KIT_ENTRY = `${ROOT}src/testing/index.ts`;
const MODEL_ENTRY = `${ROOT}src/model/index.ts`;

/** Every exported symbol of both entries with its declarations (aliases resolved). */
function exportedDeclarations(): { checker: ts.TypeChecker; exports: { name: string; symbol: ts.Symbol; entry: string }[] } {
  const program = strictProgram(ENTRIES, ['node']);
  const checker = program.getTypeChecker();
  const exports: { name: string; symbol: ts.Symbol; entry: string }[] = [];
  for (const entry of ENTRIES) {
    const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry) as ts.SourceFile) as ts.Symbol;
    for (const s of checker.getExportsOfModule(moduleSymbol)) {
      exports.push({ name: s.name, symbol: s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s, entry });
    }
  }
  return { checker, exports };
}

const { checker, exports } = exportedDeclarations();

/** The type-level declarations (interfaces, type aliases, classes) of the exports. */
function typeDeclarations(): { name: string; node: ts.Node }[] {
  const out: { name: string; node: ts.Node }[] = [];
  for (const { name, symbol } of exports) {
    for (const d of symbol.declarations ?? []) {
      if (ts.isInterfaceDeclaration(d) || ts.isTypeAliasDeclaration(d) || ts.isClassDeclaration(d)) out.push({ name, node: d });
    }
  }
  return out;
}

function hasDoc(node: ts.Node): boolean {
  return ts.getJSDocCommentsAndTags(node).some((c) => ts.isJSDoc(c) && ts.getTextOfJSDocComment(c.comment)?.trim());
}

/** The text of a node's `@example` tags (empty strings for tags without text). */
function exampleTexts(node: ts.Node): string[] {
  return ts.getJSDocTags(node).filter((t) => t.tagName.text === 'example').map((t) => ts.getTextOfJSDocComment(t.comment)?.trim() ?? '');
}

/**
 * Every property signature of the interfaces and type aliases exported from `src/model/index.ts`, nested type
 * literals included (`Coverage.plan.id`, the variants of `AnswerValue`), named by where it is declared.
 */
function modelProperties(): { name: string; node: ts.PropertySignature }[] {
  const program = strictProgram([MODEL_ENTRY], []);
  const modelChecker = program.getTypeChecker();
  const moduleSymbol = modelChecker.getSymbolAtLocation(program.getSourceFile(MODEL_ENTRY) as ts.SourceFile) as ts.Symbol;
  const out: { name: string; node: ts.PropertySignature }[] = [];
  for (const s of modelChecker.getExportsOfModule(moduleSymbol)) {
    const symbol = s.flags & ts.SymbolFlags.Alias ? modelChecker.getAliasedSymbol(s) : s;
    for (const d of symbol.declarations ?? []) {
      if (!ts.isInterfaceDeclaration(d) && !ts.isTypeAliasDeclaration(d)) continue;
      const visit = (n: ts.Node, path: string): void => {
        if (ts.isPropertySignature(n)) {
          const name = `${path}.${n.name.getText()}`;
          out.push({ name, node: n });
          if (n.type !== undefined) ts.forEachChild(n.type, function inner(c: ts.Node): void {
            if (ts.isTypeLiteralNode(c)) c.members.forEach((m) => visit(m, name));
            else ts.forEachChild(c, inner);
          });
          return;
        }
        // The variants of a union of object types are told apart by position: `AnswerValue[0].value`.
        if (ts.isUnionTypeNode(n)) n.types.forEach((t, i) => visit(t, n.types.some((u) => !ts.isTypeLiteralNode(u)) ? path : `${path}[${i}]`));
        else ts.forEachChild(n, (c) => visit(c, path));
      };
      visit(d, s.name);
    }
  }
  return out;
}

/** Whether a declared property type admits `undefined` (a union with it, or `unknown` / `any`). */
function admitsUndefined(type: ts.TypeNode | undefined): boolean {
  if (type === undefined) return true;
  if (type.kind === ts.SyntaxKind.UnknownKeyword || type.kind === ts.SyntaxKind.AnyKeyword) return true;
  return ts.isUnionTypeNode(type) && type.types.some((t) => t.kind === ts.SyntaxKind.UndefinedKeyword);
}

describe('public declarations', () => {
  it('should find the exports of both entries', () => {
    expect(exports.length).toBeGreaterThan(150);
  });

  it('should document every export', () => {
    const undocumented = exports.filter(({ symbol }) => !ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim());
    expect(undocumented.map((e) => e.name)).toEqual([]);
  });

  it('should document every member of an exported interface, class or object type', () => {
    const undocumented: string[] = [];
    for (const { name, node } of typeDeclarations()) {
      const members = ts.isInterfaceDeclaration(node) || ts.isClassDeclaration(node)
        ? node.members
        : ts.isTypeAliasDeclaration(node) && ts.isTypeLiteralNode(node.type) ? node.type.members : [];
      const documented = new Map<string, boolean>();
      for (const m of members) {
        if (ts.isConstructorDeclaration(m) || m.name === undefined) continue;
        // `name` overrides Error.name with the class name, which says all there is.
        if (ts.isClassDeclaration(node) && m.name.getText() === 'name') continue;
        // Overloads share the doc of the first one, which the editor shows for each.
        documented.set(m.name.getText(), (documented.get(m.name.getText()) ?? false) || hasDoc(m));
      }
      for (const [member, ok] of documented) if (!ok) undocumented.push(`${name}.${member}`);
    }
    expect(undocumented).toEqual([]);
  });

  it('should declare every optional property of an exported type as `T | undefined`', () => {
    const strict: string[] = [];
    for (const { name, node } of typeDeclarations()) {
      const visit = (n: ts.Node): void => {
        if ((ts.isPropertySignature(n) || ts.isPropertyDeclaration(n)) && n.questionToken !== undefined && !admitsUndefined(n.type)) {
          strict.push(`${name}.${n.name.getText()}`);
        }
        if (ts.isMappedTypeNode(n) && n.questionToken !== undefined && !admitsUndefined(n.type)) strict.push(`${name}[${n.typeParameter.name.text}]`);
        ts.forEachChild(n, visit);
      };
      visit(node);
    }
    expect(strict).toEqual([]);
  });

  it('should give every property of the chart model an `@example` with text', () => {
    const properties = modelProperties();
    expect(properties.length).toBeGreaterThan(150);
    const missing = properties.filter(({ node }) => !exampleTexts(node).some((t) => t !== '')).map((p) => p.name);
    expect(missing).toEqual([]);
  });

  it('should give every export of chart-export/testing an `@example` with text', () => {
    const kit = exports.filter((e) => e.entry === KIT_ENTRY);
    expect(kit.length).toBeGreaterThan(20);
    const missing = kit.filter(({ symbol }) => !(symbol.declarations ?? []).some((d) => exampleTexts(d).some((t) => t !== ''))).map((e) => e.name);
    expect(missing).toEqual([]);
  });
});
