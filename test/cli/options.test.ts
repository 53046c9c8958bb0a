import { describe, expect, it } from 'vitest';
import { DEFAULT_HOST, DEFAULT_PORT, HELP_TEXT, UsageError, parseCliOptions } from '../../src/cli/command-line.js';

describe('parseCliOptions', () => {
  it('should default to the demo chart on 127.0.0.1:8080', () => {
    const o = parseCliOptions([], {});
    expect(o).toMatchObject({ help: false, dataFile: undefined, keysFile: undefined, host: DEFAULT_HOST, port: DEFAULT_PORT, basePath: '', log: false });
    expect(o.sendingApplication).toBe('CHART-EXPORT');
    expect(o.sendingFacility).toBeUndefined();
    expect(DEFAULT_PORT).toBe(8080);
    expect(DEFAULT_HOST).toBe('127.0.0.1');
  });

  it('should read every environment variable, an option winning over its variable', () => {
    const env = {
      PORT: '9000',
      CHART_EXPORT_HOST: '0.0.0.0',
      CHART_EXPORT_DATA: 'env.json',
      CHART_EXPORT_KEYS: 'env-keys.json',
      CHART_EXPORT_BASE_PATH: '/api/export/',
      CHART_EXPORT_FHIR_BASE_URL: 'https://example.org/fhir/',
      CHART_EXPORT_HL7_SENDING_APPLICATION: 'CHARTX',
      CHART_EXPORT_HL7_SENDING_FACILITY: 'RIVERSIDE',
      CHART_EXPORT_HL7_PROCESSING_ID: 'T',
      CHART_EXPORT_SHUTDOWN_TIMEOUT: '2.5',
      CHART_EXPORT_LOG: '1',
      CHART_EXPORT_FHIR_STRICT_BUNDLE_TOTAL: 'true',
    };
    expect(parseCliOptions([], env)).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataFile: 'env.json',
      keysFile: 'env-keys.json',
      basePath: '/api/export',
      fhirBaseUrl: 'https://example.org/fhir',
      sendingApplication: 'CHARTX',
      sendingFacility: 'RIVERSIDE',
      processingId: 'T',
      shutdownTimeoutSeconds: 2.5,
      log: true,
      strictBundleTotal: true,
    });
    expect(parseCliOptions(['--port', '0', '--data', 'cli.json', '--keys=cli-keys.json', '--processing-id', 'D'], env)).toMatchObject({
      port: 0,
      dataFile: 'cli.json',
      keysFile: 'cli-keys.json',
      processingId: 'D',
    });
  });

  it('should treat an empty or false-like variable as unset', () => {
    expect(parseCliOptions([], { PORT: '', CHART_EXPORT_DATA: '', CHART_EXPORT_LOG: '0' })).toMatchObject({ port: 8080, dataFile: undefined, log: false, strictBundleTotal: false });
    expect(parseCliOptions([], { CHART_EXPORT_LOG: 'false' }).log).toBe(false);
  });

  it.each([
    [['--port', '65536'], {}, /--port \/ PORT must be an integer/],
    [[], { PORT: 'http' }, /--port \/ PORT/],
    [['--port'], {}, /argument missing/],
    [['--bogus'], {}, /Unknown option '--bogus'/],
    [['stray'], {}, /positional/i],
    [['--base-path', 'no-slash'], {}, /--base-path/],
    [['--fhir-base-url', 'example.org/fhir'], {}, /--fhir-base-url/],
    [['--fhir-base-url', 'ftp://example.org'], {}, /--fhir-base-url/],
    [['--processing-id', 'X'], {}, /P, T or D/],
    [['--shutdown-timeout', '-1'], {}, /--shutdown-timeout/],
    [['--sending-facility', 'a\nb'], {}, /--sending-facility/],
    [['--sending-application', 'A'.repeat(21)], {}, /--sending-application .* 1–20 characters/],
    [[], { CHART_EXPORT_HL7_SENDING_FACILITY: 'F'.repeat(21) }, /CHART_EXPORT_HL7_SENDING_FACILITY must be 1–20/],
  ] as const)('should refuse %j %j with a usage error', (argv, env, message) => {
    expect(() => parseCliOptions(argv, env)).toThrow(UsageError);
    expect(() => parseCliOptions(argv, env)).toThrow(message);
  });
});

describe('HELP_TEXT', () => {
  it('should document every option and environment variable the parser reads', () => {
    for (const name of [
      '--data', '--keys', '--port', '--host', '--base-path', '--fhir-base-url', '--sending-application', '--sending-facility',
      '--processing-id', '--shutdown-timeout', '--strict-bundle-total', '--log', '--help', '--version',
      'CHART_EXPORT_DATA', 'CHART_EXPORT_KEYS', 'PORT', 'CHART_EXPORT_HOST', 'CHART_EXPORT_BASE_PATH', 'CHART_EXPORT_FHIR_BASE_URL',
      'CHART_EXPORT_HL7_SENDING_APPLICATION', 'CHART_EXPORT_HL7_SENDING_FACILITY', 'CHART_EXPORT_HL7_PROCESSING_ID',
      'CHART_EXPORT_SHUTDOWN_TIMEOUT', 'CHART_EXPORT_LOG', 'CHART_EXPORT_FHIR_STRICT_BUNDLE_TOTAL',
    ]) {
      expect(HELP_TEXT).toContain(name);
    }
  });
});
