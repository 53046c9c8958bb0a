/**
 * The output step's tools for a route's renderer: the builder options of this request (the handler's fixed
 * FHIR and HL7 options, the clock, the control id) and the bodies, produced through the output-reuse seam.
 */
import { generateControlId, type buildFhirPatientExport, type Directory, type FhirExportOptions, type Hl7MessageOptions } from '../index.js';
import { settle } from './guards.js';
import type { HandlerSettings } from './handler-options.js';
import type { OutputReuse } from './output-reuse.js';
import type { ExportRouteName, OutputWriter } from './routes/route-types.js';

/**
 * The handler's clock as an ISO 8601 instant (the export time of an answer). The text of the last millisecond
 * is kept: requests answered within one millisecond share it instead of formatting it again.
 * @param now - the handler's clock (`settings.now`)
 * @returns a function giving the current instant as `toISOString` writes it
 * @throws what `toISOString` throws for a clock value that is no valid time (a 500, as before)
 */
export function createIsoClock(now: HandlerSettings['now']): () => string {
  let lastMs = Number.NaN;
  let lastIso = '';
  return () => {
    const value: unknown = now();
    // Only a number is kept: a host's clock may hand out an object that changes.
    if (typeof value !== 'number') return new Date(value as number).toISOString();
    if (value !== lastMs) {
      lastIso = new Date(value).toISOString();
      lastMs = value;
    }
    return lastIso;
  };
}

/**
 * The writer of one request.
 * @param settings - the handler's settings (fixed builder options, clock, control-id hook)
 * @param reuse - the handler's output reuse
 * @param isoNow - the handler's clock as an ISO 8601 instant ({@link createIsoClock})
 * @param route - the route being answered
 * @param requestId - the request id, passed to the control-id hook
 */
export function createOutputWriter(settings: HandlerSettings, reuse: OutputReuse, isoNow: () => string, route: ExportRouteName, requestId: string): OutputWriter {
  return new RequestWriter(settings, reuse, isoNow, route, requestId);
}

/** The writer of one request: a class, so a request allocates one object, not one closure per method. */
class RequestWriter implements OutputWriter {
  constructor(
    private readonly settings: HandlerSettings,
    private readonly reuse: OutputReuse,
    private readonly isoNow: () => string,
    private readonly route: ExportRouteName,
    private readonly requestId: string,
  ) {}

  private hl7WithTime(now: string, id: unknown, directory: Directory | undefined): Hl7MessageOptions {
    const o: Hl7MessageOptions = { ...this.settings.hl7, now };
    if (id !== undefined) o.controlId = id as string;
    if (directory !== undefined) o.directory = directory;
    return o;
  }

  /** The host's control id for this request (`hl7.controlId`), or `undefined` for the builders' default. */
  private hostControlId(): unknown {
    const { controlId } = this.settings;
    return controlId === undefined ? undefined : settle(controlId({ route: this.route, requestId: this.requestId }));
  }

  fhirOptions(directory: Directory | undefined): FhirExportOptions {
    const o: FhirExportOptions = { ...this.settings.fhir, now: this.isoNow() };
    if (directory !== undefined) o.directory = directory;
    return o;
  }

  hl7Options(directory: Directory | undefined): Hl7MessageOptions {
    const now = this.isoNow();
    return this.hl7WithTime(now, this.hostControlId(), directory);
  }

  fhir<TOptions extends FhirExportOptions>(key: object, records: readonly unknown[], options: TOptions, build: (options: TOptions) => ReturnType<typeof buildFhirPatientExport>): string {
    const now = options.now as string;
    return this.reuse.fhirBody(this.route, key, records, now, (at) => build(at === now ? options : { ...options, now: at }));
  }

  hl7(messageCode: 'ADT' | 'MDM' | 'ORU', key: object, records: readonly unknown[], directory: Directory | undefined, build: (options: Hl7MessageOptions) => string): string {
    const now = this.isoNow();
    // The default control id is drawn here (the builders' own default), so a reused message can carry it.
    const id: unknown = this.settings.controlId === undefined ? generateControlId(messageCode) : this.hostControlId();
    // Not a string: the builder refuses it (a 500), as it would any control id it cannot send.
    if (typeof id !== 'string') return build(this.hl7WithTime(now, id, directory));
    return this.reuse.hl7Body(this.route, key, records, messageCode, now, id, (t, c) => build(this.hl7WithTime(t, c, directory)));
  }
}
