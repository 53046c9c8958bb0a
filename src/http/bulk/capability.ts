/**
 * `GET {base}/metadata`: the FHIR R4 CapabilityStatement of the service, so Bulk Data clients and test kits
 * find the export operations, and readers the eleven routes of the export interface.
 * @see https://hl7.org/fhir/R4/capabilitystatement.html
 * @see https://hl7.org/fhir/uv/bulkdata/STU2/CapabilityStatement-bulk-data.html
 */
import { FHIR_NDJSON_RESOURCE_TYPES } from '../../index.js';
import { EXPORT_ROUTES } from '../routes/route-table.js';

/** When this statement's content last changed (`CapabilityStatement.date`). */
const STATEMENT_DATE = '2026-11-29';

/**
 * The CapabilityStatement JSON of a service at `base` (an absolute URL without a trailing slash).
 * @param base - the service base URL
 */
export function capabilityStatement(base: string): string {
  const routes = EXPORT_ROUTES.map((r) => `- \`GET ${r.path}\` (${r.format === 'fhir' ? 'application/fhir+json' : 'application/hl7-v2'}${r.scope === undefined ? ', no key' : `, scope ${r.scope}`})`).join('\n');
  const exportOperation = { name: 'export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export' };
  const statement = {
    resourceType: 'CapabilityStatement',
    id: 'chart-export',
    status: 'active',
    date: STATEMENT_DATE,
    kind: 'instance',
    instantiates: ['http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data'],
    software: { name: 'chart-export' },
    implementation: { description: 'chart-export: patient charts as FHIR R4 and HL7 v2.5.1, and FHIR Bulk Data export', url: base },
    fhirVersion: '4.0.1',
    format: ['application/fhir+json'],
    rest: [
      {
        mode: 'server',
        documentation:
          'Export routes (query parameters as in the OpenAPI document), each with an API key in `x-api-key` unless said otherwise:\n' +
          `${routes}\n\nBulk Data export (IG STU2): \`GET|POST /$export\`, \`GET|POST /Patient/$export\`, status at the \`Content-Location\` given, NDJSON files at the manifest's URLs. Group-level export is not offered: the chart model has no groups.`,
        security: {
          description:
            'An API key in the `x-api-key` header; Bulk Data requests (kick-off, status, files) also take it as `Authorization: Bearer <key>`. FHIR routes and Bulk export need the key scope `fhir:export`.',
        },
        resource: [
          ...FHIR_NDJSON_RESOURCE_TYPES.map((type) =>
            type === 'Patient'
              ? { type, operation: [{ name: 'export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/patient-export' }] }
              : { type },
          ),
        ],
        operation: [exportOperation],
      },
    ],
  };
  return JSON.stringify(statement);
}
