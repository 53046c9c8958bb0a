/**
 * What the public `size` option means for charts and documents: how many records of each kind at most.
 */
import type { DirectoryOptions } from './directories.js';
import type { DocumentOptions } from './charts.js';
import type { KitSize } from './text-values.js';

const DIRECTORY_SIZES: Readonly<Record<KitSize, DirectoryOptions>> = {
  small: { maxOrganizations: 1, maxPractitioners: 2, maxLocations: 1 },
  medium: {},
  large: { maxOrganizations: 5, maxPractitioners: 8, maxLocations: 5 },
};

const CHART_SIZES: Readonly<Record<KitSize, DocumentOptions>> = {
  small: { maxEncounters: 1, maxNotes: 1, maxAssessments: 1, maxHistory: 1, maxDiagnoses: 1, maxProcedures: 1, maxItems: 3, maxCoverages: 1, maxPatients: 2 },
  medium: { maxPatients: 3 },
  large: { maxEncounters: 8, maxNotes: 8, maxAssessments: 5, maxHistory: 8, maxDiagnoses: 5, maxProcedures: 4, maxItems: 9, maxCoverages: 3, maxPatients: 8, longNotes: true },
};

/**
 * The counts behind a size: `small` at most one record of each kind and two patients, `medium` up to three
 * of each, `large` up to eight with long notes.
 * @param size - the public size (default small)
 * @returns the chart and document options for it
 * @example optionsForSize('small').maxEncounters // 1
 */
export function optionsForSize(size: KitSize = 'small'): DocumentOptions {
  return { ...CHART_SIZES[size], directoryOptions: DIRECTORY_SIZES[size] };
}
