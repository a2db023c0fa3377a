/**
 * Issue 17, "no request can crash the service", as a property over every row of the route table. Per route:
 *   (a) inputs shaped by its zod schemas (and its documented examples), then spoiled: a field dropped or
 *       swapped for a hostile value (1e308, -0, 1e-320, huge or lone-surrogate strings, null, deep nesting),
 *       an array emptied or stretched;
 *   (b) hostile transport: odd path parameters and percent-escapes, raw query strings, wrong content
 *       types, bodies that are not JSON, multipart cut short, random bytes.
 * Every request must get an answer, below 500, in JSON. The seed is fixed (FUZZ_SEED), so a failure
 * replays; it prints fast-check's seed and path, the request, the answer and the server's error lines.
 *
 *   npx jest test/robustness/fuzz.test.ts            FUZZ_RUNS=200 FUZZ_SEED=7 to dig deeper
 */
import http from 'node:http';
import fc from 'fast-check';
import * as z from 'zod';
import { ROUTES, type Route } from '../../shared/routes';
import { ROUTE_DOCS } from '../../shared/openapi/route-docs';
import { identifier } from '../../shared/schemas/bounds';
import { UploadFormA } from '../../shared/schemas/uploads';
import { accountByEmail, changeTier, issueKey, registerAccount } from '../../shared/services/accounts/accounts';
import { forgetCachedKeys } from '../../shared/access/authentication';
import { useRuntime } from '../helpers/runtime';
import { UNLIMITED_ENV } from '../helpers/unlimited-env';

const SEED = Number(process.env.FUZZ_SEED ?? 17_017);
/** Runs per route and kind: 2 x 40 x 50 routes, about 4,000 requests (and the shrinking of any failure). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
/** No answer within this long counts as a dropped request (the heaviest cases here answer within seconds). */
const ANSWER_TIMEOUT_MS = 30_000;
/** Generated arrays: enough to pass most minimum lengths, few enough that training, batch and interpolation stay quick. */
const ARRAY_CAP = 8;
const STRING_CAP = 40;
/** The `stretch` mutation repeats an array's elements up to this length (heavier handlers, still far below the body limit). */
const STRETCH_LENGTH = 2_000;
const BOUNDARY = 'fuzzBoundary17';

// An edge node serves every route of the table, the edge-only ones included.
const runtime = useRuntime({ edge: true, env: { LOG_LEVEL: 'error', ...UNLIMITED_ENV } });

// ---------------------------------------------------------------------------------------------------------
// zod 4 schema -> fast-check arbitrary. Walks `schema._zod.def` (type, shape, element, checks, ...); kinds
// it does not know become any JSON value. Field names steer strings the schema leaves open (timestamps, URLs).
// ---------------------------------------------------------------------------------------------------------

interface Def {
  type: string;
  [field: string]: unknown;
}
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def): Def[] => ((def.checks as unknown[] | undefined) ?? []).map(defOf);
const checkValue = (checks: Def[], check: string, field: string) => checks.filter((c) => c.check === check).map((c) => c[field] as number);

/** Mostly the recent past and near future; sometimes anywhere in years 1-9999 (a span a handler might try to fill hour by hour). */
const instant = fc.oneof(
  { weight: 8, arbitrary: fc.date({ min: new Date('2024-01-01T00:00:00Z'), max: new Date('2027-01-01T00:00:00Z'), noInvalidDate: true }) },
  { weight: 1, arbitrary: fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }) },
);
const isoInstant = instant.map((d) => d.toISOString());
const isoDay = instant.map((d) => d.toISOString().slice(0, 10));
/** Callback URLs stay on this machine (closed ports) or are refused: the fuzz must not reach the network. */
const callbackUrl = fc.constantFrom('http://127.0.0.1:9/hook', 'http://localhost:1/orders', 'https://[::1]:9/x', 'ftp://127.0.0.1/', 'https://user:pw@127.0.0.1/', 'not a url');
const place = fc.constantFrom('Berlin', 'Cape Town', 'São Paulo', 'Tokyo', 'Nowhere-on-earth', '');

function stringOf(def: Def, key: string): fc.Arbitrary<string> {
  const checks = checksOf(def);
  const format = (def.format as string | undefined) ?? checks.find((c) => c.check === 'string_format')?.format;
  const min = Math.max(0, ...checkValue(checks, 'min_length', 'minimum'));
  const max = Math.min(...checkValue(checks, 'max_length', 'maximum'));
  const cut = (s: string) => (Number.isFinite(max) ? s.slice(0, max) : s);
  if (format === 'email') return fc.emailAddress().map(cut);
  if (format === 'datetime' || /timestamp|_at$|^(from|to)$/.test(key)) return isoInstant;
  if (format === 'date' || /date|^since$/.test(key)) return isoDay;
  if (/url$/.test(key)) return callbackUrl;
  if (key === 'location') return place;
  const pattern = (def.pattern ?? checks.find((c) => c.format === 'regex')?.pattern) as RegExp | string | undefined;
  if (pattern) return fc.stringMatching(new RegExp(pattern), { maxLength: STRING_CAP }).map(cut);
  const unit = fc.oneof({ weight: 4, arbitrary: fc.constant('grapheme-ascii' as const) }, { weight: 1, arbitrary: fc.constant('grapheme' as const) });
  return unit.chain((u) => fc.string({ unit: u, minLength: Math.min(min, STRING_CAP), maxLength: Math.min(max, Math.max(min, STRING_CAP)) }));
}

function numberOf(def: Def): fc.Arbitrary<number> {
  const checks = checksOf(def);
  const lower = checks.filter((c) => c.check === 'greater_than').sort((a, b) => (b.value as number) - (a.value as number))[0];
  const upper = checks.filter((c) => c.check === 'less_than').sort((a, b) => (a.value as number) - (b.value as number))[0];
  const min = (lower?.value as number | undefined) ?? -1e6;
  const max = (upper?.value as number | undefined) ?? 1e6;
  if (checks.some((c) => c.check === 'number_format' && /int/.test(String(c.format)))) {
    return fc.integer({ min: Math.ceil(Math.max(min, -(2 ** 31))) + (lower && !lower.inclusive ? 1 : 0), max: Math.floor(Math.min(max, 2 ** 31)) });
  }
  return fc.double({ min, max, minExcluded: lower ? !lower.inclusive : false, maxExcluded: upper ? !upper.inclusive : false, noNaN: true, noDefaultInfinity: true });
}

/** An arbitrary of the values `schema` accepts, mostly; `key` is the field it sits in. */
function arbitraryOf(schema: unknown, key = ''): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      const requiredKeys = Object.keys(shape).filter((k) => !['optional', 'default', 'prefault'].includes(defOf(shape[k]).type));
      return fc.record(Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, arbitraryOf(s, k)])), { requiredKeys });
    }
    case 'array': {
      const checks = checksOf(def);
      const min = Math.min(Math.max(0, ...checkValue(checks, 'min_length', 'minimum')), ARRAY_CAP);
      return fc.array(arbitraryOf(def.element, key), { minLength: min, maxLength: Math.min(...checkValue(checks, 'max_length', 'maximum'), Math.max(min, ARRAY_CAP)) });
    }
    case 'string':
      return stringOf(def, key);
    case 'number':
      return numberOf(def);
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, string>));
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'union':
      return fc.oneof(...(def.options as unknown[]).map((o) => arbitraryOf(o, key)));
    case 'optional':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return arbitraryOf(def.innerType, key);
    case 'nullable':
      return fc.option(arbitraryOf(def.innerType, key), { nil: null, freq: 4 });
    case 'pipe':
      // A preprocess (transform, then schema) takes what its schema takes.
      return arbitraryOf(defOf(def.in).type === 'transform' ? def.out : def.in, key);
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 12 }), arbitraryOf(def.valueType), { maxKeys: 4 });
    case 'lazy':
      return arbitraryOf((def.getter as () => unknown)(), key);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Spoiling a value: up to three mutations, each at a path picked by index among all paths of the value.
// Shrinking removes mutations and simplifies the hostile values, so a counterexample ends small.
// ---------------------------------------------------------------------------------------------------------

/** A body nested past MAX_BODY_DEPTH (32). */
const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });
const HOSTILE_CONSTANTS: unknown[] = [
  1e308, -1e308, 0, -0, 1e-320, 1e15 + 2, -(1e15 + 2), 2 ** 53 + 1, -1, 0.5, 1e21, null, true, false,
  '', ' ', '0', '-1', '1e308', 'NaN', '-Infinity', '2026-02-30T25:61:00Z', '0000-00-00', '+275760-09-13T00:00:00Z', '9999-12-31T23:59:59Z',
  'a/b', '../..', '%ZZ', '\u0000', '\uD800', '\u202Eabc', 'é', '😀'.repeat(3_000), 'x'.repeat(100_000),
  [], {}, [null], [[[[]]]], { a: { b: { c: {} } } }, nested(40),
  JSON.parse('{"__proto__":{"polluted":true}}'), { constructor: { prototype: { polluted: true } } },
  Array.from({ length: 50_000 }, (_, i) => i),
];
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_CONSTANTS) },
  { weight: 2, arbitrary: fc.double() }, // NaN and infinities become null in JSON; -0 and subnormals stay
  { weight: 1, arbitrary: fc.integer() },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);
const ADDED_KEYS = ['extra', '__proto__', 'constructor', 'customer_id', 'site_id', 'asset_ids', 'order_id', 'id', '', 'k'.repeat(300)];

interface Mutation {
  at: number;
  op: 'replace' | 'drop' | 'add' | 'stretch' | 'empty';
  key: string;
  value: unknown;
}
const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  op: fc.oneof(
    { weight: 5, arbitrary: fc.constant('replace' as const) },
    { weight: 2, arbitrary: fc.constant('drop' as const) },
    { weight: 2, arbitrary: fc.constant('add' as const) },
    { weight: 1, arbitrary: fc.constant('stretch' as const) },
    { weight: 1, arbitrary: fc.constant('empty' as const) },
  ),
  key: fc.constantFrom(...ADDED_KEYS),
  value: hostileValue,
});

type Container = Record<string, unknown> | unknown[];
const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null;

function pathsOf(value: unknown, limit = 4_000): (string | number)[][] {
  const paths: (string | number)[][] = [[]];
  const walk = (v: unknown, path: (string | number)[]) => {
    if (!isContainer(v) || paths.length >= limit) return;
    for (const [k, child] of Object.entries(v)) {
      const p = [...path, Array.isArray(v) ? Number(k) : k];
      paths.push(p);
      walk(child, p);
    }
  };
  walk(value, []);
  return paths;
}

/** Sets an own property, `__proto__` included (plain assignment would change the prototype instead). */
const setOwn = (target: Container, key: string | number, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });

function applyMutation(root: unknown, mutation: Mutation): unknown {
  // The hostile values are shared constants: a copy goes in, so later mutations cannot change (or loop) them.
  const m = { ...mutation, value: structuredClone(mutation.value) };
  const paths = pathsOf(root);
  const path = paths[m.at % paths.length];
  const parent = path.slice(0, -1).reduce<unknown>((v, k) => (v as Container)[k as never], root) as Container | undefined;
  const last = path[path.length - 1];
  const target = path.length ? (parent as Container)[last as never] : root;
  const put = (value: unknown) => {
    if (!path.length) return value;
    setOwn(parent!, last, value);
    return root;
  };
  switch (m.op) {
    case 'replace':
      return put(m.value);
    case 'drop':
      if (!path.length) return undefined;
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete (parent as Record<string, unknown>)[last as string];
      return root;
    case 'add':
      if (Array.isArray(target)) target.push(m.value);
      else if (isContainer(target)) setOwn(target, m.key, m.value);
      else return put(m.value);
      return root;
    case 'stretch':
      if (!Array.isArray(target) || !target.length) return put(m.value);
      return put(Array.from({ length: STRETCH_LENGTH }, (_, i) => structuredClone(target[i % target.length])));
    case 'empty':
      return put(Array.isArray(target) ? [] : {});
  }
}

/** Mostly-valid values of `base`, then up to three mutations (none in about a quarter of the cases). */
const spoiled = (base: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc.tuple(base, fc.array(mutation, { maxLength: 3 })).map(([value, mutations]) => mutations.reduce(applyMutation, structuredClone(value)));

/** The route's documented examples (valid, so they reach deep into the handler) and schema-made values. */
function valuesOf(schema: unknown, examples: Record<string, unknown> = {}): fc.Arbitrary<unknown> {
  const made = arbitraryOf(schema);
  const known = Object.values(examples);
  return known.length ? fc.oneof(fc.constantFrom(...known), made) : made;
}

// ---------------------------------------------------------------------------------------------------------
// Requests on the wire.
// ---------------------------------------------------------------------------------------------------------

type Auth = 'enterprise' | 'bearer' | 'none' | 'bogus';
const auth: fc.Arbitrary<Auth> = fc.oneof(
  { weight: 7, arbitrary: fc.constant('enterprise' as const) },
  { weight: 1, arbitrary: fc.constant('bearer' as const) },
  { weight: 2, arbitrary: fc.constant('none' as const) },
  { weight: 1, arbitrary: fc.constant('bogus' as const) },
);

interface WireRequest {
  method: string;
  /** Path and query as sent: only bytes 0x21-0x7e, anything else percent-encoded. */
  target: string;
  contentType?: string;
  body?: Buffer;
  auth: Auth;
}

/** Percent-encodes what may not travel raw in a request target; `%` itself stays, so broken escapes reach the server. */
const wireSafe = (s: string) =>
  [...s].map((c) => (c >= '!' && c <= '~' ? c : [...Buffer.from(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''))).join('');

/** encodeURIComponent without its throw on a lone surrogate. */
const encodeSegment = (value: unknown) => wireSafe(typeof value === 'string' ? value : JSON.stringify(value) ?? 'undefined').replace(/[/?#%&=+]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function queryOf(value: unknown): string {
  if (!isContainer(value)) return value === undefined ? '' : `?${encodeSegment(value)}`;
  const parts = Object.entries(value).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((item) => `${encodeSegment(k)}=${encodeSegment(item)}`));
  return parts.length ? `?${parts.join('&')}` : '';
}

function fillPath(route: Route, params: unknown): string {
  const values = isContainer(params) ? (params as Record<string, unknown>) : {};
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeSegment(values[name] ?? ''));
}

function multipartBody(fields: unknown, csv: string | undefined, boundary = BOUNDARY): Buffer {
  const parts: string[] = [];
  const entries = isContainer(fields) ? Object.entries(fields) : [['value', fields] as const];
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${typeof value === 'string' ? value : JSON.stringify(value)}\r\n`);
  }
  if (csv !== undefined) parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="data.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n`);
  return Buffer.from(`${parts.join('')}--${boundary}--\r\n`);
}

/** A CSV upload: a header, rows at a fixed step from some instant, values that are sometimes not numbers, sometimes a far-off row. */
const csvFile: fc.Arbitrary<string> = fc
  .record({
    header: fc.constantFrom('timestamp,power_kw', 'timestamp,energy_kwh', 'time,value', 'date;power', 'a,b,c', ''),
    start: instant,
    stepMinutes: fc.constantFrom(15, 60, 1440),
    values: fc.array(fc.oneof({ weight: 6, arbitrary: fc.double({ min: -10, max: 1e4, noNaN: true }).map(String) }, { weight: 1, arbitrary: fc.constantFrom('', 'NaN', 'abc', '1e308', '-1e308', '"1,5"') }), { maxLength: 200 }),
    farRow: fc.option(fc.constantFrom('0001-01-01T00:00:00Z,1', '9999-12-31T23:00:00Z,1', 'not-a-time,1', ',,,,', '\u0000'), { freq: 3 }),
  })
  .map(({ header, start, stepMinutes, values, farRow }) => {
    const rows = values.map((v, i) => `${new Date(start.getTime() + i * stepMinutes * 60_000).toISOString()},${v}`);
    return [header, ...rows, ...(farRow ? [farRow] : [])].join('\n') + '\n';
  });

/** Form fields: the row's form schema without its file part (an upload form on the routes that take none). */
const formFieldsOf = (route: Route) => ((route.request?.form ?? UploadFormA) as z.ZodObject).omit({ file: true });

const formRequest = (route: Route): fc.Arbitrary<Pick<WireRequest, 'contentType' | 'body'>> =>
  fc.tuple(spoiled(arbitraryOf(formFieldsOf(route))), fc.option(csvFile, { freq: 6 })).map(([fields, csv]) => ({
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: multipartBody(fields, csv ?? undefined),
  }));

const jsonRequest = (value: unknown): Pick<WireRequest, 'contentType' | 'body'> =>
  value === undefined ? {} : { contentType: 'application/json', body: Buffer.from(JSON.stringify(value)) };

/** (a): the route's own inputs, spoiled. */
function schemaShaped(route: Route): fc.Arbitrary<WireRequest> {
  const doc = ROUTE_DOCS[route.id];
  const { body: bodySchema, query: querySchema, path: pathOfRow } = route.request ?? {};
  const pathSchema = pathOfRow ?? z.object(Object.fromEntries([...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, identifier()])));
  const body: fc.Arbitrary<Pick<WireRequest, 'contentType' | 'body'>> = (() => {
    switch (route.body) {
      case 'json':
        return spoiled(bodySchema ? valuesOf(bodySchema, doc.examples) : fc.jsonValue({ maxDepth: 3 })).map(jsonRequest);
      case 'upload':
        return fc.oneof(spoiled(bodySchema ? valuesOf(bodySchema, doc.examples) : fc.jsonValue()).map(jsonRequest), formRequest(route));
      case 'multipart':
        return formRequest(route);
      case 'csv':
        return csvFile.map((csv) => ({ contentType: 'text/csv', body: Buffer.from(csv) }));
      case 'none':
        return fc.constant({});
    }
  })();
  return fc
    .record({
      params: spoiled(arbitraryOf(pathSchema)),
      query: querySchema ? spoiled(arbitraryOf(querySchema)) : fc.constant(undefined),
      body,
      auth,
    })
    .map(({ params, query, body, auth }) => ({ method: route.method, target: fillPath(route, params) + queryOf(query), ...body, auth }));
}

const pathSegment = fc
  .array(
    fc.oneof(
      fc.constantFrom('%41', '%E2%82%AC', '%', '%Z', '%ZZ', '%E0%A4%A', '%C0', '%FF', '%00', '%2F', '%0A', '%20', '.', '..', '~', 'upl_1', 'job_1', 'a'.repeat(5_000)),
      fc.string({ unit: 'binary', maxLength: 8 }).map(wireSafe),
    ),
    { maxLength: 5 },
  )
  .map((pieces) => pieces.join(''));
const rawQuery = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'customer_id=%ZZ', `customer_id=${'c'.repeat(9_000)}`, 'customer_id=a%2Fb', 'horizon_hours=1e308', 'horizon_hours=-0', 'limit=NaN', 'limit=1e-320',
        'a=1&a=2', '&&&', '=', '%', 'since=9999-99-99', 'priority=,,,', 'from=0000-01-01T00:00:00Z', 'customer_id[]=x', 'asset=../../package.json', 'asset=__proto__',
      ),
      fc.string({ unit: 'binary', maxLength: 20 }).map(wireSafe),
    ),
    { maxLength: 4 },
  )
  .map((parts) => parts.join('&'));
const contentType = fc.oneof(
  fc.constantFrom(
    'application/json', 'application/json; charset=utf-16', 'text/plain', 'text/csv', 'application/x-www-form-urlencoded', 'application/octet-stream',
    'multipart/form-data', 'multipart/form-data; boundary=', `multipart/form-data; boundary=${BOUNDARY}`, 'multipart/mixed; boundary=x', 'application/problem+json', 'image/png', '*/*', ';;;',
  ),
  fc.string({ maxLength: 30 }),
);
const BROKEN_BODIES = [
  '', '{', '{"a":', 'null', '[]', '"text"', '1e999', 'NaN', '{"a":1}{"b":2}', '\uFEFF{}', '{"a":1,}', "{'a':1}", 'true', '[1,2', '{"__proto__":{"x":1}}',
  '{"a":'.repeat(10_000), '[' .repeat(50_000), '{"customer_id":"' + 'c'.repeat(200_000) + '"}',
  `--${BOUNDARY}\r\nContent-Disposition: form-data; filename="d.csv"\r\n\r\ntimestamp,power_kw\n\r\n--${BOUNDARY}--\r\n`,
  `--${BOUNDARY}\r\n\r\nno headers\r\n--${BOUNDARY}--\r\n`,
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="d.csv"\r\n\r\ntimestamp,power_kw\n2026-01-01T00:00:00Z,1\n`,
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${'n'.repeat(100_000)}"\r\n\r\nx\r\n--${BOUNDARY}--\r\n`,
  `--${BOUNDARY}--\r\n`,
];

/** (b): the same route reached with odd paths, queries, content types and bodies. */
function hostileTransport(route: Route): fc.Arbitrary<WireRequest> {
  const body = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...BROKEN_BODIES).map((s) => Buffer.from(s)) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }).map((s) => Buffer.from(s)) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 1_024 }).map((b) => Buffer.from(b)) },
    // Multipart cut at any byte (and sometimes with a boundary the header does not announce).
    { weight: 3, arbitrary: fc.tuple(formRequest(route), fc.nat()).map(([form, cut]) => form.body!.subarray(0, cut % (form.body!.length + 1))) },
    // Beyond the 6 MB body limit.
    { weight: 1, arbitrary: fc.constant(Buffer.alloc(7 * 1024 * 1024, 0x7b)) },
  );
  return fc
    .record({
      method: fc.oneof({ weight: 8, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD') }),
      segments: fc.array(pathSegment, { minLength: 5, maxLength: 5 }),
      suffix: fc.constantFrom('', '', '', '/', '//', '/extra', '%2F', '/..'),
      query: fc.option(rawQuery, { freq: 2 }),
      contentType: fc.option(contentType, { freq: 5 }),
      body: fc.option(body, { freq: 5 }),
      auth,
    })
    .map(({ method, segments, suffix, query, contentType, body, auth }) => {
      let i = 0;
      const path = route.path.replace(/\{\w+\}/g, () => segments[i++]) + suffix;
      return { method, target: path + (query === null ? '' : `?${query}`), contentType: contentType ?? undefined, body: body ?? undefined, auth };
    });
}

// ---------------------------------------------------------------------------------------------------------
// Sending, and what every answer must be.
// ---------------------------------------------------------------------------------------------------------

let enterpriseKey = '';
/** The server's error log lines (LOG_LEVEL=error), captured instead of printed; a failure quotes its own. */
const errorLines: string[] = [];
const statuses = new Map<number, number>();

const describeRequest = (r: WireRequest) => {
  const body = r.body ? `${r.body.length} bytes: ${JSON.stringify(r.body.subarray(0, 400).toString('utf8'))}${r.body.length > 400 ? '...' : ''}` : 'none';
  return `${r.method} ${r.target.length > 400 ? `${r.target.slice(0, 400)}... (${r.target.length} chars)` : r.target} | auth ${r.auth} | content-type ${r.contentType ?? 'none'} | body ${body}`;
};

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

function send(r: WireRequest): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (r.contentType !== undefined) headers['content-type'] = r.contentType;
  // Node's client sends a GET, HEAD or DELETE body without a length: the server would rightly read it as the next request.
  if (r.body) headers['content-length'] = String(r.body.length);
  if (r.auth === 'enterprise') headers['x-api-key'] = enterpriseKey;
  if (r.auth === 'bearer') headers.authorization = `Bearer ${enterpriseKey}`;
  if (r.auth === 'bogus') headers['x-api-key'] = 'eo_live_not-a-key';
  return new Promise((resolve, reject) => {
    // A connection of its own per request: one dropped socket cannot blame the next request.
    const req = http.request({ host: '127.0.0.1', port: runtime().port, method: r.method, path: r.target, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(ANSWER_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    req.end(r.body);
  });
}

async function expectAnswered(route: Route, r: WireRequest): Promise<void> {
  const logged = errorLines.length;
  const fail = (problem: string) => {
    const lines = errorLines.slice(logged).map((l) => l.slice(0, 1_500));
    throw new Error(`${problem}\n  request: ${describeRequest(r)}\n  server error log:${lines.length ? `\n    ${lines.join('\n    ')}` : ' (nothing)'}`);
  };
  let answer: Answer;
  try {
    answer = await send(r);
  } catch (err) {
    return fail(`no answer: ${(err as Error).message} (${(err as NodeJS.ErrnoException).code ?? 'no code'})`);
  }
  statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  if (answer.status >= 500 || answer.status < 100) fail(`answered ${answer.status}: ${answer.text.slice(0, 500)}`);
  // Every answer is JSON, except the 2xx of the documentation page and its assets, and HEAD (no body).
  const mustBeJson = r.method !== 'HEAD' && (answer.status >= 300 || route.id !== 'docs');
  if (mustBeJson) {
    if (!/^application\/json/.test(answer.contentType)) fail(`answered ${answer.status} as ${answer.contentType || 'no content type'}: ${answer.text.slice(0, 300)}`);
    try {
      JSON.parse(answer.text);
    } catch {
      fail(`answered ${answer.status} with a body that is not JSON: ${answer.text.slice(0, 300)}`);
    }
  }
}

/** A per-route seed: adding a route does not change the cases of the others. */
const seedOf = (name: string) => [...name].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, SEED);

async function fuzz(route: Route, kind: string, requests: fc.Arbitrary<WireRequest>): Promise<void> {
  const shown = requests.map((r) => Object.assign(r, { [fc.toStringMethod]: () => describeRequest(r) }));
  await fc.assert(
    fc.asyncProperty(shown, (r) => expectAnswered(route, r)),
    { seed: seedOf(`${route.id}/${kind}`), numRuns: RUNS, includeErrorInReport: true, plugins: [fc.interruptAfterTimeLimit(100_000)] },
  );
}

let restoreStderr: (() => void) | undefined;

beforeAll(async () => {
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    const text = chunk.toString();
    if (text.startsWith('{"level":"error"')) {
      errorLines.push(...text.trimEnd().split('\n'));
      return true;
    }
    return write(chunk, ...rest);
  }) as typeof process.stderr.write;
  restoreStderr = () => (process.stderr.write = write);

  // An enterprise key as the operator's `npm run accounts -- mint` makes it: no quota ends the run.
  const email = `fuzz+${Date.now()}@example.com`;
  await registerAccount({ email, organization: 'Fuzz', use_case: 'issue 17' });
  await changeTier(email, 'enterprise');
  enterpriseKey = await issueKey(await accountByEmail(email));
  forgetCachedKeys();
});

afterAll(() => {
  restoreStderr?.();
  if (process.env.FUZZ_VERBOSE) {
    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ');
    process.stdout.write(`fuzz: ${total} requests (${byStatus}); ${errorLines.length} server error lines\n${errorLines.map((l) => `  ${l.slice(0, 600)}`).join('\n')}\n`);
  }
});

describe.each(ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_name, route) => {
  it('answers schema-shaped, spoiled inputs below 500, in JSON', () => fuzz(route, 'schema', schemaShaped(route)), 150_000);
  it('answers hostile paths, queries, content types and bodies below 500, in JSON', () => fuzz(route, 'transport', hostileTransport(route)), 150_000);
});
