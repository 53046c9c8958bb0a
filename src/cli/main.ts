#!/usr/bin/env node
/// <reference types="node" />
/**
 * `chart-export`: serve the export interface from a chart document. Built to `dist/cli.js`, the
 * package's `bin` and what `npm start` runs. Run `chart-export --help` for the options.
 */
import { main } from './run.js';

void main(process.argv.slice(2), process.env);
