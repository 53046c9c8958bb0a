import { defineConfig } from 'tsup';
import { cli } from './tsup.cli.config.js';

// Keep this entry list equal to the "exports" map of package.json.
export default defineConfig([{
  entry: { index: 'src/index.ts', 'http/index': 'src/http/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
}, cli]);
