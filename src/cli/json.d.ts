/**
 * Types of the JSON files the service command bundles, for the library's type check (`tsconfig.json`, which
 * does not resolve JSON modules). Where JSON modules resolve (`tsconfig.test.json`), the files themselves
 * give the types instead. The build embeds package.json's version into `dist/cli.js` and turns the demo chart's
 * import into a call of its generator (`dist/demo-chart.js`, see tsup.cli.config.ts).
 */
declare module '*/examples/data/demo-chart.json' {
  /** The demo chart document (generated when the command starts); checked by `loadChartDocument` before use. */
  const document: unknown;
  export default document;
}

declare module '*/package.json' {
  /** The package version. */
  export const version: string;
}
