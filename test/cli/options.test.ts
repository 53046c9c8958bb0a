import fc from 'fast-check';
import { Redis } from 'ioredis';
import { Redis as Redis5 } from 'ioredis-5';
import { parseURL as parseURL5 } from 'ioredis-5/built/utils/index.js';
import { parseURL } from 'ioredis/built/utils/index.js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HOST, DEFAULT_PORT, HELP_TEXT, UsageError, parseCliOptions } from '../../src/cli/command-line.js';

describe('parseCliOptions', () => {
  it('should default to the demo chart on 127.0.0.1:8080', () => {
    const o = parseCliOptions([], {});
    expect(o).toMatchObject({ help: false, dataFile: undefined, keysFile: undefined, host: DEFAULT_HOST, port: DEFAULT_PORT, basePath: '', log: undefined, redisUrl: undefined, metrics: false });
    expect(o.server).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, maxConnections: 1_000 });
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
      CHART_EXPORT_REDIS_URL: 'rediss://:pw@cache.example.org:6380/1',
      CHART_EXPORT_REDIS_PREFIX: 'svc:',
      CHART_EXPORT_METRICS: '1',
      CHART_EXPORT_HEADERS_TIMEOUT: '2',
      CHART_EXPORT_REQUEST_TIMEOUT: '4.5',
      CHART_EXPORT_KEEP_ALIVE_TIMEOUT: '0',
      CHART_EXPORT_MAX_CONNECTIONS: '50',
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
      log: 'text',
      strictBundleTotal: true,
      redisUrl: 'rediss://:pw@cache.example.org:6380/1',
      redisPrefix: 'svc:',
      metrics: true,
      server: { headersTimeoutMs: 2000, requestTimeoutMs: 4500, keepAliveTimeoutMs: 0, maxConnections: 50 },
    });
    expect(parseCliOptions(['--port', '0', '--data', 'cli.json', '--keys=cli-keys.json', '--processing-id', 'D'], env)).toMatchObject({
      port: 0,
      dataFile: 'cli.json',
      keysFile: 'cli-keys.json',
      processingId: 'D',
    });
    expect(parseCliOptions(['--directory-rate-limit', '120/60'], {}).directoryRateLimit).toEqual({ limit: 120, windowSeconds: 60 });
    expect(parseCliOptions([], { CHART_EXPORT_DIRECTORY_RATE_LIMIT: '5/1' }).directoryRateLimit).toEqual({ limit: 5, windowSeconds: 1 });
    expect(parseCliOptions([], {}).directoryRateLimit).toBeUndefined();
    expect(parseCliOptions(['--redis-url', 'redis://127.0.0.1:6379', '--max-connections', '7'], env)).toMatchObject({ redisUrl: 'redis://127.0.0.1:6379', server: { maxConnections: 7 } });
  });

  it('should read --log alone, with a format, and the format of CHART_EXPORT_LOG', () => {
    expect(parseCliOptions(['--log'], {}).log).toBe('text');
    expect(parseCliOptions(['--log', '--port', '0'], {})).toMatchObject({ log: 'text', port: 0 });
    expect(parseCliOptions(['--log', 'json'], {}).log).toBe('json');
    expect(parseCliOptions(['--log=json'], {}).log).toBe('json');
    expect(parseCliOptions(['--log', 'text'], { CHART_EXPORT_LOG: 'json' }).log).toBe('text');
    expect(parseCliOptions([], { CHART_EXPORT_LOG: 'json' }).log).toBe('json');
    expect(parseCliOptions([], { CHART_EXPORT_LOG: 'true' }).log).toBe('text');
  });

  it('should treat an empty or false-like variable as unset', () => {
    expect(parseCliOptions([], { PORT: '', CHART_EXPORT_DATA: '', CHART_EXPORT_LOG: '0' })).toMatchObject({ port: 8080, dataFile: undefined, log: undefined, strictBundleTotal: false });
    expect(parseCliOptions([], { CHART_EXPORT_LOG: 'false' }).log).toBeUndefined();
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
    [['--log=yaml'], {}, /--log takes text or json/],
    [[], { CHART_EXPORT_LOG: 'yaml' }, /CHART_EXPORT_LOG must be/],
    [['--redis-url', 'http://cache:6379'], {}, /redis:\/\/ or rediss:\/\//],
    [['--redis-url', 'not a url'], {}, /--redis-url/],
    [['--headers-timeout', '0.5'], {}, /--headers-timeout .* from 1 to 3600/],
    [['--headers-timeout', '40'], {}, /must not be longer than --request-timeout/],
    [['--max-connections', '0'], {}, /--max-connections/],
    [['--directory-rate-limit', '120'], {}, /LIMIT\/SECONDS/],
    [['--directory-rate-limit', '0/60'], {}, /LIMIT\/SECONDS/],
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
      '--redis-url', '--redis-prefix', '--metrics', '--headers-timeout', '--request-timeout', '--keep-alive-timeout', '--max-connections',
      'CHART_EXPORT_REDIS_URL', 'CHART_EXPORT_REDIS_PREFIX', 'CHART_EXPORT_METRICS', 'CHART_EXPORT_HEADERS_TIMEOUT',
      'CHART_EXPORT_REQUEST_TIMEOUT', 'CHART_EXPORT_KEEP_ALIVE_TIMEOUT', 'CHART_EXPORT_MAX_CONNECTIONS', 'SIGHUP', '--directory-rate-limit', 'CHART_EXPORT_DIRECTORY_RATE_LIMIT',
      'CHART_EXPORT_DATA', 'CHART_EXPORT_KEYS', 'PORT', 'CHART_EXPORT_HOST', 'CHART_EXPORT_BASE_PATH', 'CHART_EXPORT_FHIR_BASE_URL',
      'CHART_EXPORT_HL7_SENDING_APPLICATION', 'CHART_EXPORT_HL7_SENDING_FACILITY', 'CHART_EXPORT_HL7_PROCESSING_ID',
      'CHART_EXPORT_SHUTDOWN_TIMEOUT', 'CHART_EXPORT_LOG', 'CHART_EXPORT_FHIR_STRICT_BUNDLE_TOTAL',
    ]) {
      expect(HELP_TEXT).toContain(name);
    }
  });
});

describe('parseCliOptions and secrets', () => {
  it('should not quote a stray argument, which may be a Redis URL with its password', () => {
    let error: unknown;
    try {
      parseCliOptions(['redis://:s3cret@cache:6379'], {});
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/no positional arguments/);
    expect((error as Error).message).not.toContain('s3cret');
  });
});

describe('parseCliOptions --redis-url', () => {
  /** What an ioredis client of each supported major (6 and 5) takes from a URL, as the command creates it. */
  function clientOptions(url: string): Record<string, unknown>[] {
    const pick = ({ host, port, db, username, password, tls }: Redis['options'] | Redis5['options']): Record<string, unknown> => ({ host, port, db, username, password, tls: tls !== undefined });
    return [pick(new Redis(url, { lazyConnect: true }).options), pick(new Redis5(url, { lazyConnect: true }).options)];
  }

  it.each([
    ['redis://cache', { host: 'cache', port: 6379, db: 0, username: null, password: null, tls: false }],
    ['redis://cache/', { host: 'cache', port: 6379, db: 0, username: null, password: null, tls: false }],
    ['redis://cache:6379/0', { host: 'cache', port: 6379, db: 0, username: null, password: null, tls: false }],
    ['rediss://user:pw@cache.example.org:6380/15', { host: 'cache.example.org', port: 6380, db: 15, username: 'user', password: 'pw', tls: true }],
    ['redis://cache/2147483647', { host: 'cache', port: 6379, db: 2147483647, username: null, password: null, tls: false }],
    ['redis://cache/007', { host: 'cache', port: 6379, db: 7, username: null, password: null, tls: false }],
    ['redis://[::1]:6379/3', { host: '::1', port: 6379, db: 3, username: null, password: null, tls: false }],
    ['redis://:p%40ss%23w%3Ard@cache:6379/1', { host: 'cache', port: 6379, db: 1, username: '', password: 'p@ss#w:rd', tls: false }],
    ['redis://%C3%A9l%C3%A8ve:%E2%82%AC@cache', { host: 'cache', port: 6379, db: 0, username: 'élève', password: '€', tls: false }],
    ['rediss://:pa ss@cache', { host: 'cache', port: 6379, db: 0, username: '', password: 'pa ss', tls: true }],
  ])('should accept %s as it is, which ioredis 6 and 5 read as written', (url, expected) => {
    expect(parseCliOptions(['--redis-url', url], {}).redisUrl).toBe(url);
    expect(parseCliOptions([], { CHART_EXPORT_REDIS_URL: url }).redisUrl).toBe(url);
    expect(clientOptions(url)).toEqual([expected, expected]);
  });

  it.each([
    // A path that is not a database number: ioredis SELECTs NaN, the number in front ('/1a' is 1), or a database Redis refuses.
    ['redis://cache/abc', /path only a database number from 0 to 2147483647/],
    ['redis://cache/1/2', /path only a database number/],
    ['redis://cache/-1', /path only a database number/],
    ['redis://cache/1.5', /path only a database number/],
    ['redis://cache/0x10', /path only a database number/],
    ['redis://cache/1e3', /path only a database number/],
    ['redis://cache/%31', /path only a database number/],
    ['redis://cache/0/', /path only a database number/],
    ['redis://cache/2147483648', /path only a database number/],
    ['redis://cache/99999999999', /path only a database number/],
    // A query string ioredis would take as client options, and a fragment it ignores.
    ['redis://cache:6379?db=2', /takes no query string/],
    ['redis://cache:6379/0?password=x', /takes no query string/],
    ['redis://cache?', /takes no query string/],
    ['redis://cache:6379/0#main', /takes no fragment/],
    ['redis://cache#', /takes no fragment/],
    // What ioredis would read otherwise than written: without TLS (its check of rediss:// is case-sensitive), or
    // with the characters the URL parser drops.
    ['REDISS://cache', /must start with redis:\/\/ or rediss:\/\/ in lower case/],
    ['Rediss://:pw@cache', /in lower case/],
    ['REDIS://cache', /in lower case/],
    [' rediss://cache', /in lower case/],
    ['redis://:pa\tss@cache', /no control characters/],
    ['redis://:pass\n@cache', /no control characters/],
    ['redis://cache:6379\r\n', /no control characters/],
    ['redis://cache ', /end without a space/],
    // A password with a character it should have escaped, which cuts the URL short.
    ['redis://:pa#ss@cache:6379', /percent-encode @ : \/ \? # %/],
    ['redis://:pa?ss@cache:6379', /percent-encode/],
    ['redis://:pa/ss@cache:6379', /percent-encode/],
    // Escapes ioredis cannot decode (its decodeURIComponent throws at start).
    ['redis://:pa%zzss@cache', /malformed percent-escape: write % as %25/],
    ['redis://us%er:pw@cache', /malformed percent-escape/],
    ['redis://:%FF@cache', /malformed percent-escape/],
    ['redis://cache:0', /port 0/],
  ])('should refuse %s with a usage error that names the option', (url, message) => {
    for (const read of [() => parseCliOptions(['--redis-url', url], {}), () => parseCliOptions([], { CHART_EXPORT_REDIS_URL: url })]) {
      expect(read).toThrow(UsageError);
      expect(read).toThrow(message);
      expect(read).toThrow(/^--redis-url \/ CHART_EXPORT_REDIS_URL /);
    }
  });

  /** The usage error `parseCliOptions` throws for a Redis URL, or undefined when it accepts it. */
  function refusal(url: string): UsageError | undefined {
    try {
      parseCliOptions(['--redis-url', url], {});
      return undefined;
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      return error as UsageError;
    }
  }

  /** A password that holds a marker no message contains, then anything (escaped in the URL, as it should be). */
  const password = fc.string({ unit: 'grapheme', maxLength: 24 }).map((rest) => `S3cr3tMark${rest}`);
  const badTail = fc.oneof(
    fc.constantFrom('/abc', '/1/2', '/-1', '/1.5', '/0x1', '/2147483648', '/0/', '?db=1', '#x', '/0?', '/3#'),
    // A letter or '-' first: '/.' and '/..' are dot segments, which the URL parser removes (and ioredis never sees).
    fc.stringMatching(/^\/[a-z-][a-z0-9.-]{0,8}$/),
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }).map((t) => `?${t}`),
  );

  it('should accept only URLs ioredis 6 and 5 read as written: host, port, database, user name, password, TLS (property)', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme-ascii', maxLength: 8 }),
      fc.constantFrom('', '/', '/0', '/15', '/-1', '/a', '/1a', '/1/2', '?', '#', '%', '%zz', '%41', '%FF', '%20', ':', '@', '/..', '\t', '\n', ' '),
    );
    const userinfo = fc.oneof(fc.constantFrom('', ':pw@', 'u:p@'), piece.map((p) => `:${p}@`), piece.map((p) => `${p}:x@`), piece.map((p) => `${p}@`));
    const host = fc.constantFrom('cache', 'cache:6379', 'cache:06380', '[::1]', '', 'cache:0');
    const scheme = fc.constantFrom('redis://', 'rediss://', 'REDISS://', 'Redis://', ' rediss://', 'redis:/');
    const url = fc.tuple(scheme, userinfo, host, piece).map((parts) => parts.join(''));
    fc.assert(
      fc.property(url, (candidate) => {
        if (refusal(candidate) !== undefined) return;
        const written = new URL(candidate);
        const path = written.pathname;
        const hasUser = written.username !== '' || written.password !== '';
        // ioredis' own reading of the URL: only these fields, none from a query string.
        for (const read of [parseURL, parseURL5]) {
          const parsed = read(candidate);
          expect(Object.keys(parsed).every((key) => ['host', 'port', 'db', 'username', 'password'].includes(key))).toBe(true);
          expect(parsed['host']).toBe(written.hostname.replace(/^\[|\]$/g, ''));
        }
        const expected = {
          host: written.hostname.replace(/^\[|\]$/g, ''),
          port: written.port === '' ? 6379 : Number(written.port),
          db: path.length > 1 ? Number(path.slice(1)) : 0,
          username: hasUser ? decodeURIComponent(written.username) : null,
          password: hasUser ? decodeURIComponent(written.password) : null,
          tls: written.protocol === 'rediss:',
        };
        expect(clientOptions(candidate)).toEqual([expected, expected]);
      }),
    );
  });

  it('should never quote the password of a refused URL (property)', () => {
    fc.assert(
      fc.property(password, fc.constantFrom('', 'user'), badTail, fc.constantFrom('redis', 'rediss', 'REDISS'), (secret, user, tail, scheme) => {
        const url = `${scheme}://${user}:${encodeURIComponent(secret)}@cache.example.org:6379${tail}`;
        const error = refusal(url);
        expect(error).toBeDefined();
        const message = (error as UsageError).message;
        expect(message).not.toContain('S3cr3tMark');
        expect(message).not.toContain(encodeURIComponent(secret));
        expect(message).not.toContain(url);
      }),
    );
  });

  it('should never quote a password written without escapes, whether the URL is refused or not (property)', () => {
    fc.assert(
      fc.property(password, fc.option(badTail, { nil: '' }), (secret, tail) => {
        const error = refusal(`redis://:${secret}@cache:6379${tail}`);
        if (error !== undefined) expect(error.message).not.toContain('S3cr3tMark');
      }),
    );
  });
});

describe('maskRedisUrl', () => {
  it('should never show the password of a Redis URL', async () => {
    const { maskRedisUrl } = await import('../../src/cli/redis.js');
    expect(maskRedisUrl('redis://:s3cret@cache:6379/0')).toBe('redis://:****@cache:6379/0');
    expect(maskRedisUrl('rediss://user:p%40ss@cache.example.org:6380')).toBe('rediss://****:****@cache.example.org:6380');
    // A secret written where the user name goes is hidden too.
    expect(maskRedisUrl('redis://s3cret@cache:6379')).toBe('redis://****@cache:6379');
    expect(maskRedisUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(maskRedisUrl('::')).toBe('redis://…');
  });
});
