// Hostile input, generated: fast-check arbitraries for the fuzz suite (test/fuzz.test.ts), driven
// by the service's own OpenAPI document and GraphQL schema. Every case they make is hostile: it
// holds at least one thing the contract refuses, so the service must answer it with a 4xx (REST)
// or GraphQL errors, and change nothing.
import fc from 'fast-check';

// ---------------------------------------------------------------------------------------------
// JSON written by hand: numbers JSON.stringify cannot write (1e309, -0, 2^64), objects that name a
// key twice or name `__proto__`, and documents nested deeper than any stack.

/** A JSON text fragment, sent as is. */
export class RawJson {
  constructor(readonly text: string) {}
  [fc.toStringMethod](): string {
    return `raw(${abbreviate(this.text)})`;
  }
}

/** A JSON object as a list of members, in order: keys may repeat, `__proto__` is just a key. */
export class JsonMembers {
  constructor(readonly members: [string, unknown][]) {}
  [fc.toStringMethod](): string {
    return `{${this.members.map(([k, v]) => `${abbreviate(JSON.stringify(k))}: ${fc.stringify(v)}`).join(', ')}}`;
  }
}

export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof LongString) return JSON.stringify(value.value);
  if (value instanceof JsonMembers) return `{${value.members.map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') return toJsonText(new JsonMembers(Object.entries(value)));
  return JSON.stringify(value) ?? 'null';
}

/** Long strings shortened, so that a counterexample stays readable. */
export function abbreviate(text: string, max = 120): string {
  return text.length <= max ? text : `${text.slice(0, max)}…(${text.length} chars)`;
}

/** A string that prints abbreviated in counterexamples (fast-check would print all 100 kB of it). */
export class LongString {
  constructor(readonly value: string) {}
  [fc.toStringMethod](): string {
    return `"${abbreviate(this.value, 40)}"`;
  }
  toJSON(): string {
    return this.value;
  }
}

export const unwrap = (v: unknown): unknown => (v instanceof LongString ? v.value : v);

// ---------------------------------------------------------------------------------------------
// Hostile values

/** Characters no input may hold: NUL, other C0 controls, DEL, lone surrogates (high and low). */
export const FORBIDDEN_CHARACTERS = ['\u0000', '\u0001', '\u0007', '\u0008', '\u000b', '\u000c', '\u001b', '\u001f', '\u007f', '\ud800', '\udbff', '\udc00', '\udfff'];

/**
 * A string holding one forbidden character somewhere among any other text. In a URL's query a lone
 * surrogate cannot be said (its percent-encoded bytes are not UTF-8 and decode as U+FFFD), so
 * `controlsOnly` leaves them out.
 */
export const taintedString = (controlsOnly = false): fc.Arbitrary<string> =>
  fc.tuple(fc.string({ maxLength: 12 }), fc.constantFrom(...FORBIDDEN_CHARACTERS.filter((c) => !controlsOnly || !/[\ud800-\udfff]/.test(c))), fc.string({ maxLength: 12 }))
    .map(([a, c, b]) => a + c + b);

/** Numbers no field of this API accepts as a string, and that JSON.stringify cannot even write. */
export const ABSURD_NUMBERS = ['1e309', '-1e309', '-0', '18446744073709551616', '-9223372036854775809', '1e-400', '0.1e1000', '123456789012345678901234567890'];

/** Nested `depth` levels deep: arrays, objects, or both. */
export function deeplyNested(depth: number, kind: 'array' | 'object'): RawJson {
  return kind === 'array' ? new RawJson('['.repeat(depth) + '1' + ']'.repeat(depth)) : new RawJson('{"a":'.repeat(depth) + '1' + '}'.repeat(depth));
}

/** Deeper than the input rule allows (32, also counted from inside a GraphQL variable), and far deeper (a recursive walker's stack). */
export const deepValue = (): fc.Arbitrary<RawJson> =>
  fc.tuple(fc.constantFrom(40, 100, 5_000, 100_000), fc.constantFrom<'array' | 'object'>('array', 'object')).map(([d, k]) => deeplyNested(d, k));

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  additionalProperties?: boolean;
};

const typesOf = (schema: JsonSchema): string[] => {
  if (schema.anyOf) return schema.anyOf.flatMap(typesOf);
  if (schema.enum) return [...new Set(schema.enum.map((v) => (v === null ? 'null' : typeof v)))];
  return Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
};

/** JSON values of a type the schema does not accept. */
export function wrongType(schema: JsonSchema): fc.Arbitrary<unknown> {
  const accepted = typesOf(schema);
  const candidates: fc.Arbitrary<unknown>[] = [];
  if (!accepted.includes('string')) candidates.push(fc.string({ maxLength: 8 }));
  if (!accepted.includes('number') && !accepted.includes('integer')) {
    candidates.push(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(...ABSURD_NUMBERS).map((n) => new RawJson(n)));
  }
  if (!accepted.includes('boolean')) candidates.push(fc.boolean());
  if (!accepted.includes('null')) candidates.push(fc.constant(null));
  if (!accepted.includes('array')) candidates.push(fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }), deepValue());
  if (!accepted.includes('object')) candidates.push(fc.constant({}), fc.constant(new JsonMembers([['__proto__', { admin: true }]])), deepValue());
  return fc.oneof(...candidates);
}

/**
 * What no value of `schema` may be: the wrong type, a string with a forbidden character, longer
 * than its maxLength (100 kB when that is more), outside its enum, or an array of such.
 */
export function hostileValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [wrongType(schema)];
  const strings = schema.anyOf ? schema.anyOf.find((s) => typesOf(s).includes('string')) : typesOf(schema).includes('string') ? schema : undefined;
  if (strings) {
    options.push(taintedString());
    if (strings.maxLength !== undefined) {
      const length = strings.maxLength + 1;
      options.push(fc.constantFrom(length, Math.max(length, 100_001)).map((n) => new LongString('x'.repeat(n))));
    }
    if (strings.enum) options.push(fc.string({ maxLength: 12 }).filter((s) => !strings.enum!.includes(s)));
    if (strings.pattern) {
      const re = new RegExp(strings.pattern);
      options.push(fc.string({ maxLength: 16 }).filter((s) => !re.test(s)));
    }
  }
  if (schema.items) options.push(fc.tuple(hostileValue(schema.items)).map(([item]) => [item]));
  return fc.oneof(...options);
}

// ---------------------------------------------------------------------------------------------
// Valid values, from a schema: the rest of a request around the one hostile part, so that the
// hostile part is what gets it refused.

export function validValue(schema: JsonSchema, name: string, samples: Record<string, unknown>): unknown {
  if (name in samples) return samples[name];
  if (schema.anyOf) return validValue(schema.anyOf.find((s) => !typesOf(s).includes('null')) ?? schema.anyOf[0]!, name, samples);
  if (schema.enum) return schema.enum[0];
  const [type] = typesOf(schema);
  switch (type) {
    case 'boolean':
      return true;
    case 'integer':
    case 'number':
      return 1;
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, () => validValue(schema.items ?? {}, name, samples));
    case 'object':
      return validObject(schema, samples);
    default: {
      if (schema.format === 'date') return '2020-01-01';
      if (schema.format === 'date-time') return '2020-01-01T00:00:00Z';
      if (schema.format === 'email') return 'fuzz@example.com';
      if (schema.pattern === '^\\/') return '/fuzz';
      return 'fuzz'.padEnd(schema.minLength ?? 0, 'z');
    }
  }
}

/** The required members, or the first one when none is (a body must say something). */
export function validObject(schema: JsonSchema, samples: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties ?? {};
  const names = schema.required?.length ? schema.required : Object.keys(properties).slice(0, 1);
  return Object.fromEntries(names.map((n) => [n, validValue(properties[n] ?? {}, n, samples)]));
}

// ---------------------------------------------------------------------------------------------
// REST: the operations of openapi.json

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
}

export interface RestOperation {
  method: string;
  path: string;
  operationId: string;
  parameters: Parameter[];
  body?: JsonSchema;
  /** A token or API key is required. */
  auth: boolean;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { operationId: string; parameters?: Parameter[]; security?: unknown[]; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>;
}

export function restOperations(doc: OpenApiDocument): RestOperation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      operationId: op.operationId,
      parameters: op.parameters ?? [],
      body: op.requestBody?.content['application/json']?.schema,
      auth: (op.security ?? []).length > 0,
    })),
  );
}

/** One REST request, as sent. */
export interface RestCase {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** What makes it hostile. */
  hostile: string;
  [fc.toStringMethod]?: () => string;
}

export interface RestFixtures {
  /** A real value for each path parameter and required query parameter, by operation and name. */
  ids: (op: RestOperation, name: string) => string;
  /** Valid body members by name (credentials, tokens), for bodies the service would accept. */
  samples: (op: RestOperation) => Record<string, unknown>;
  token: string;
}

/**
 * An id in a URL path that no resource has, percent-encoded as sent (raw, when it is an encoding).
 * Not `.`, `..` or `%2e%2e`: the client's URL parser resolves those as steps in the path before
 * the request leaves (`/courses/%2e%2e/enrollments` is sent as `/enrollments`), so they never reach
 * the service as an id. Three dots are an id.
 */
export const hostileId = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 24 }).map(encodeSegment),
    taintedString().map(encodeSegment),
    fc.constantFrom(
      '%00', '%01', '%1b', '%7f', '%ED%A0%80', '%ED%B0%80', '%', '%zz', '%E0%A4%A', '%C0%AF', '%FF%FE', '...', '%2e%2e%2e', 'a%2F..%2Fb', 'a%2Fb', '%20',
      '__proto__', 'constructor', 'prototype', '-0', '1e309', '18446744073709551616', "' OR '1'='1", 'null', 'undefined', '[object Object]',
      'usr_01kzzzzzzzzzzzzzzzzzzzzzzz', 'les_01kzzzzzzzzzzzzzzzzzzzzzzz', 'whk_01kzzzzzzzzzzzzzzzzzzzzzzz', 'x'.repeat(65),
    ),
    fc.constantFrom(20_000, 100_000).map((n) => 'x'.repeat(n)),
  );

/** Percent-encodes a path segment; a lone surrogate (which has no UTF-8) as its CESU-8 bytes. */
function encodeSegment(s: string): string {
  return s.replace(/[\ud800-\udbff][\udc00-\udfff]|[\s\S]/g, (c) => {
    const unit = c.charCodeAt(0);
    if (c.length === 1 && unit >= 0xd800 && unit <= 0xdfff) return `%ED%${(0xa0 + ((unit >> 6) & 0x1f)).toString(16).toUpperCase()}%${(0x80 + (unit & 0x3f)).toString(16).toUpperCase()}`;
    return encodeURIComponent(c);
  });
}

/** A query value the parameter refuses (percent-encoded as sent). */
function hostileQueryValue(param: Parameter): fc.Arbitrary<string> {
  const options: fc.Arbitrary<string>[] = [taintedString(true).map(encodeSegment)];
  const { pattern, maxLength } = param.schema;
  if (pattern) {
    const re = new RegExp(pattern);
    options.push(fc.string({ unit: 'grapheme-ascii', maxLength: 16 }).filter((s) => !re.test(s)).map(encodeSegment));
    // Integers out of range or not written as one (2^64, 1e309, -0, 0x10, Arabic digits).
    if (pattern.includes('\\d')) options.push(fc.constantFrom('0', '00', '-0', '-1', '1e3', '1.5', '0x10', ' 1', '%D9%A1', '1001', '18446744073709551616', '9'.repeat(400), ...ABSURD_NUMBERS));
  } else {
    // An id, cursor or name that nothing has.
    options.push(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 24 }).map((s) => encodeSegment(`fz${s}`)));
  }
  options.push(fc.constant('x'.repeat(maxLength !== undefined ? Math.max(maxLength + 1, 2_049) : 20_000)));
  return fc.oneof(...options);
}

/** A Content-Type that is not JSON. */
const NOT_JSON_TYPES = ['text/plain', 'text/plain;charset=utf-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'text/html', 'application/jsonx', 'application/octet-stream'];

/** A hostile body for an operation that takes one, around its valid body. */
function hostileBody(body: JsonSchema, valid: Record<string, unknown>): fc.Arbitrary<{ text: string; contentType?: string; hostile: string }> {
  const properties = body.properties ?? {};
  const names = Object.keys(properties);
  const json = (value: unknown, hostile: string) => ({ text: toJsonText(value), hostile });
  const options: fc.Arbitrary<{ text: string; contentType?: string; hostile: string }>[] = [
    // One member hostile.
    fc.constantFrom(...names).chain((name) =>
      hostileValue(properties[name]!).map((value) => json(new JsonMembers([...Object.entries(valid).filter(([k]) => k !== name), [name, value]]), `body.${name}`)),
    ),
    // A member the schema does not have.
    fc.tuple(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'role', 'isAdmin', 'userId', ''), fc.string({ maxLength: 8 }), taintedString()).filter((k) => !names.includes(k)), fc.jsonValue({ maxDepth: 2 }))
      .map(([key, value]) => json(new JsonMembers([...Object.entries(valid), [key, value]]), `unknown member ${JSON.stringify(key)}`)),
    // A member named twice, the valid value first or last.
    fc.tuple(fc.constantFrom(...Object.keys(valid)), fc.boolean()).map(([name, first]) => {
      const members = Object.entries(valid);
      const again: [string, unknown] = [name, valid[name]];
      return json(new JsonMembers(first ? [again, ...members] : [...members, again]), `duplicate key ${name}`);
    }),
    // Not an object, or not JSON.
    fc.oneof(fc.constantFrom('[]', 'null', '1', '"x"', 'true', ...ABSURD_NUMBERS).map((t) => ({ text: t, hostile: 'body not an object' })),
      deepValue().map((v) => ({ text: v.text, hostile: 'deep body' }))),
    fc.oneof(
      fc.constantFrom('{', '}', '{"a":1,}', "{'a':1}", '{"a":NaN}', '{"a":undefined}', '\ufeff{}', 'NaN', '{"a":1}}', '{"a"}', '{"a":"\\x"}', '{"a":"\\ud800"', 'nul\u0000'),
      fc.nat().map((n) => {
        const text = toJsonText(valid);
        return text.slice(0, 1 + (n % (text.length - 1)));
      }),
    ).map((t) => ({ text: t, hostile: 'malformed JSON' })),
    // The valid body, declared as something else.
    fc.constantFrom(...NOT_JSON_TYPES).map((contentType) => ({ text: toJsonText(valid), contentType, hostile: `content-type ${contentType}` })),
  ];
  const required = body.required ?? [];
  if (required.length) {
    options.push(fc.constantFrom(...required).map((name) => json(Object.fromEntries(Object.entries(valid).filter(([k]) => k !== name)), `missing ${name}`)));
  }
  return fc.oneof(...options);
}

/** Garbage where a credential goes: `Authorization` values HTTP allows, none of them valid. */
export function garbageAuthorization(token: string): fc.Arbitrary<string> {
  const latin1 = fc.string({ unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff })).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 40 });
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return fc.oneof(
    latin1.filter((s) => s.trim().length > 0),
    latin1.map((s) => `Bearer ${s.trim() || 'x'}`),
    latin1.map((s) => `Bearer lp_${s.trim()}`),
    fc.nat({ max: signature.length - 2 }).map((i) => `Bearer ${header}.${payload}.${flip(signature, i)}`),
    fc.nat({ max: payload.length - 1 }).map((i) => `Bearer ${header}.${flip(payload, i)}.${signature}`),
    fc.constantFrom(
      'Bearer', 'Bearer ', 'bearer', token, `Basic ${Buffer.from('ada@example.com:lovelace-1815').toString('base64')}`, `Bearer ${token} ${token}`,
      `Bearer ${token}x`, `Bearer ${header}.${payload}`, `Bearer ${header}.${payload}.`, `Token ${token}`, `Bearer ${'x'.repeat(8_000)}`,
      `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`, `Bearer ${b64({ alg: 'HS256', typ: 'JWT', kid: '../../etc/passwd' })}.${payload}.${signature}`,
      'Bearer lp_', 'Bearer null', 'Bearer undefined', 'Bearer ÿÿÿÿ',
    ),
  );
}

function restCase(op: RestOperation, fx: RestFixtures, parts: { ids?: Record<string, string>; query?: Record<string, string>; body?: string; contentType?: string; authorization?: string; apiKey?: string; hostile: string }): RestCase {
  let path = op.path;
  for (const p of op.parameters.filter((p) => p.in === 'path')) {
    path = path.replace(`{${p.name}}`, parts.ids?.[p.name] ?? encodeURIComponent(fx.ids(op, p.name)));
  }
  const query: Record<string, string> = {};
  for (const p of op.parameters.filter((p) => p.in === 'query' && p.required)) query[p.name] = encodeURIComponent(fx.ids(op, p.name));
  Object.assign(query, parts.query);
  const search = Object.entries(query).map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&');
  // An API key in X-API-Key is the credential only without an Authorization header.
  const headers: Record<string, string> = parts.apiKey !== undefined ? { 'x-api-key': parts.apiKey } : { authorization: parts.authorization ?? `Bearer ${fx.token}` };
  let body = parts.body;
  if (body === undefined && op.body) body = toJsonText(validObject(op.body, fx.samples(op)));
  if (body !== undefined) headers['content-type'] = parts.contentType ?? 'application/json';
  const sent: RestCase = { method: op.method, path: search ? `${path}?${search}` : path, headers, body, hostile: parts.hostile };
  sent[fc.toStringMethod] = () => `${parts.hostile}: ${op.method} ${abbreviate(sent.path)} ${sent.body === undefined ? '' : abbreviate(sent.body)} ${JSON.stringify(Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, abbreviate(v, 60)])))}`;
  return sent;
}

/** Hostile requests to one REST operation, sent as an ADMIN: a path id, a query value, the body. */
export function hostileRestCase(op: RestOperation, fx: RestFixtures): fc.Arbitrary<RestCase> {
  const options: fc.Arbitrary<RestCase>[] = [];
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  if (pathParams.length) {
    options.push(fc.tuple(fc.constantFrom(...pathParams.map((p) => p.name)), hostileId()).map(([name, id]) => restCase(op, fx, { ids: { [name]: id }, hostile: `path ${name}` })));
  }
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  // A declared query parameter with a value it refuses, or any parameter with a forbidden character.
  if (queryParams.length) {
    options.push(fc.constantFrom(...queryParams).chain((p) => hostileQueryValue(p).map((v) => restCase(op, fx, { query: { [p.name]: v }, hostile: `query ${p.name}` }))));
  }
  options.push(
    fc.tuple(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 8 }), taintedString(true)).map(([name, v]) =>
      restCase(op, fx, { query: { [`fz${name}`]: encodeSegment(v) }, hostile: 'query value with a forbidden character' }),
    ),
  );
  if (op.body) {
    const valid = validObject(op.body, fx.samples(op));
    options.push(hostileBody(op.body, valid).map(({ text, contentType, hostile }) => restCase(op, fx, { body: text, contentType, hostile })));
  }
  return fc.oneof(...options);
}

/** The valid request to an operation that needs credentials, with garbage for them (Authorization or X-API-Key). */
export function garbageAuthCase(op: RestOperation, fx: RestFixtures): fc.Arbitrary<RestCase> {
  const latin1 = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 40 });
  return fc.oneof(
    garbageAuthorization(fx.token).map((authorization) => restCase(op, fx, { authorization, hostile: 'garbage Authorization' })),
    fc.oneof(latin1.map((k) => `lp_${k}`), latin1, fc.constantFrom('lp_', fx.token, `lp_${'x'.repeat(8_000)}`))
      .map((apiKey) => restCase(op, fx, { apiKey, hostile: 'garbage X-API-Key' })),
  );
}
