/** The body schemas of the OpenAPI description: FHIR Bundle, OperationOutcome, problem+json, HL7 message. */
import { ERROR_CODES, type Json } from './openapi-common.js';

/** A FHIR R4 Bundle as the export routes send it. */
function bundleSchema(): Json {
  return {
    type: 'object',
    description: 'A FHIR R4 Bundle (https://hl7.org/fhir/R4/bundle.html). `fullUrl` is `<ResourceType>/<id>`, or absolute under the configured FHIR base URL.',
    required: ['resourceType', 'id', 'type', 'timestamp'],
    properties: {
      resourceType: { const: 'Bundle' },
      id: { type: 'string' },
      type: { type: 'string', enum: ['collection', 'searchset'] },
      timestamp: { type: 'string', format: 'date-time' },
      total: { type: 'integer', minimum: 0, description: 'Number of entries (left out of `collection` Bundles when the host sets `fhir.strictBundleTotal`).' },
      link: {
        type: 'array',
        description: 'On the directory\'s `searchset`: `self` and, when more records follow, `next`, as absolute URLs.',
        items: {
          type: 'object',
          required: ['relation', 'url'],
          properties: { relation: { type: 'string', enum: ['self', 'next'] }, url: { type: 'string', format: 'uri', pattern: '^https?://' } },
        },
      },
      entry: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['fullUrl', 'resource'],
          properties: {
            fullUrl: { type: 'string' },
            resource: { type: 'object', required: ['resourceType', 'id'], properties: { resourceType: { type: 'string' }, id: { type: 'string' } } },
            search: { type: 'object', properties: { mode: { type: 'string', enum: ['match', 'include'] } } },
          },
        },
      },
    },
  };
}

/** A FHIR R4 OperationOutcome as the FHIR routes send errors, with the machine codes `codes`. */
function operationOutcomeSchema(codes: string[]): Json {
  return {
    type: 'object',
    description:
      'A FHIR R4 OperationOutcome (https://hl7.org/fhir/R4/operationoutcome.html): one issue per refused parameter, else one issue. ' +
      '`details.coding` carries the machine code; `diagnostics` the request id.',
    required: ['resourceType', 'issue'],
    properties: {
      resourceType: { const: 'OperationOutcome' },
      issue: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['severity', 'code', 'details', 'diagnostics'],
          properties: {
            severity: { const: 'error' },
            code: {
              type: 'string',
              enum: ['not-found', 'not-supported', 'login', 'forbidden', 'throttled', 'invalid', 'required', 'value', 'exception', 'transient'],
            },
            details: {
              type: 'object',
              required: ['coding', 'text'],
              properties: {
                coding: {
                  type: 'array',
                  minItems: 1,
                  maxItems: 1,
                  items: {
                    type: 'object',
                    required: ['system', 'code'],
                    properties: { system: { const: 'urn:chart-export:http-error' }, code: { type: 'string', enum: codes } },
                  },
                },
                text: { type: 'string' },
              },
            },
            diagnostics: { type: 'string', pattern: '^request id: [A-Za-z0-9._:-]{1,128}$' },
          },
        },
      },
    },
  };
}

/** RFC 9457 problem details as the HL7 routes and unknown paths send errors, with the machine codes `codes`. */
function problemSchema(codes: string[]): Json {
  return {
    type: 'object',
    description: 'RFC 9457 problem details (https://www.rfc-editor.org/rfc/rfc9457) with the members `code`, `requestId` and, on a 400, `invalidParams`.',
    required: ['type', 'title', 'status', 'detail', 'code', 'requestId'],
    properties: {
      type: { const: 'about:blank' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      code: { type: 'string', enum: codes },
      requestId: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
      invalidParams: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['name', 'reason', 'detail'],
          properties: {
            name: { type: 'string' },
            reason: { type: 'string', enum: ['missing', 'empty', 'duplicated', 'malformed', 'not-an-integer', 'negative', 'unknown-value', 'invalid-cursor'] },
            detail: { type: 'string' },
          },
        },
      },
    },
  };
}

/** The body schemas of the export routes (components.schemas). */
export function buildSchemas(): Json {
  const codes = [...new Set(Object.values(ERROR_CODES).flat()), 'route-not-found', 'not-supported'];
  return {
    FhirBundle: bundleSchema(),
    OperationOutcome: operationOutcomeSchema(codes),
    Problem: problemSchema(codes),
    Hl7Message: {
      type: 'string',
      description: 'An HL7 v2.5.1 message in ER7 encoding: segments separated by carriage returns, the MSH segment first with the encoding characters `^~\\&`.',
      pattern: '^MSH\\|\\^~\\\\&\\|',
    },
  };
}
