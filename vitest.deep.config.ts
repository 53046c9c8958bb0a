import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * `npm run test:deep`: the whole suite with every property run twenty times as often (see test/support/runs.ts),
 * without time limits per test. Not part of `npm test` or CI: run it before a release and after changing a
 * generator or a rule the properties check.
 */
export default mergeConfig(
  base,
  defineConfig({
    test: {
      env: { CHART_EXPORT_PROPERTY_RUNS: '20' },
      testTimeout: 0,
      hookTimeout: 0,
    },
  }),
);
