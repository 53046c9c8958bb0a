import { defineConfig } from 'tsup';
import { cli } from './tsup.cli.config.js';
import { library } from './tsup.shared.js';

export default defineConfig([...library, cli]);
