/** TypeScript programs over the package's sources, as a strict consumer's compiler reads them. */
import ts from 'typescript';

/**
 * A program over `entries` with the options of a strict consumer (`strict`, `exactOptionalPropertyTypes`),
 * without emitting.
 * @param entries - absolute paths of the root files
 * @param types - the `@types` packages to load (`[]` for none)
 */
export function strictProgram(entries: readonly string[], types: readonly string[]): ts.Program {
  return ts.createProgram([...entries], {
    strict: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [...types],
  });
}
