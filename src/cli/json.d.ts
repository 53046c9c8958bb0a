/**
 * Types of the JSON files the service command bundles, for the library's type check (`tsconfig.json`, which
 * does not resolve JSON modules). Where JSON modules resolve (`tsconfig.test.json`), the files themselves
 * give the types instead. tsup embeds both files into `dist/cli.js`.
 */
declare module '*/examples/data/demo-chart.json' {
  /** The embedded demo chart document; checked by `loadChartDocument` before use. */
  const document: unknown;
  export default document;
}

declare module '*/package.json' {
  /** The package version. */
  export const version: string;
}
