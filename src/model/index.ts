export * from './common.js';
export * from './patient.js';
export * from './encounter.js';
export * from './note.js';
export * from './assessment.js';
export * from './history.js';
export * from './directory.js';
export * from './chart.js';
