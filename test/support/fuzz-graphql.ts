// Hostile GraphQL operations, generated from the service's schema (by introspection): for every
// root field, an argument the service must refuse, given as a variable or a literal, with the other
// arguments valid; and request bodies that are not GraphQL requests at all.
import fc from 'fast-check';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isAbstractType,
  GraphQLNonNull,
  type GraphQLInputObjectType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLInputType,
} from 'graphql';
import { ABSURD_NUMBERS, abbreviate, deepValue, hostileValue, JsonMembers, LongString, RawJson, taintedString, toJsonText, type JsonSchema } from './fuzz.js';

export interface GraphQLCase {
  /** The root operation type: subscriptions are read as an event stream. */
  operation: 'query' | 'mutation' | 'subscription';
  body: string;
  hostile: string;
}

export interface GraphQLFixtures {
  /** A valid value for an argument (or input field) by field and name, or undefined for the type's default. */
  sample: (field: string, name: string, type: GraphQLInputType) => unknown;
  /** What the REST schemas say about a string by its name (maxLength, pattern): the same rules apply. */
  stringRules: Record<string, JsonSchema>;
}

type Input = GraphQLArgument | GraphQLInputField;

/** A valid value for an input type: the sample, else a default of its kind. */
function validInput(field: string, input: Input, fx: GraphQLFixtures): unknown {
  const sample = fx.sample(field, input.name, input.type);
  if (sample !== undefined) return sample;
  // An optional argument is left out: the hostile one is the only thing said.
  if (!isNonNullType(input.type)) return null;
  const type = getNullableType(input.type);
  if (isListType(type)) return [];
  if (isInputObjectType(type)) return validObjectInput(field, type, fx);
  if (isEnumType(type)) return type.getValues()[0]!.value;
  switch (getNamedType(type).name) {
    case 'Int':
      return 1;
    case 'Boolean':
      return true;
    case 'DateTime':
      return '2020-01-01T00:00:00Z';
    default:
      return 'fuzz';
  }
}

/** The required fields of an input object, or its first field when none is (an update says something). */
function validObjectInput(field: string, type: GraphQLInputObjectType, fx: GraphQLFixtures): Record<string, unknown> {
  const fields = Object.values(type.getFields());
  const required = fields.filter((f) => isNonNullType(f.type));
  return Object.fromEntries((required.length ? required : fields.slice(0, 1)).map((f) => [f.name, fx.sample(field, f.name, f.type) ?? validInput(field, { ...f, type: new GraphQLNonNull(getNullableType(f.type)) } as Input, fx)]));
}

const INVALID_INTS = ['0', '-1', '2147483648', '-2147483649', '100001', '1.5', '"1"', 'true', '{}', '[]', ...ABSURD_NUMBERS];

/** A JSON value (as a variable) that `type` refuses. */
function hostileInput(field: string, input: Input, type: GraphQLInputType, fx: GraphQLFixtures): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [deepValue()];
  if (isNonNullType(type)) options.push(fc.constant(null));
  const inner = getNullableType(type);
  if (isListType(inner)) {
    const item = inner.ofType as GraphQLInputType;
    options.push(hostileInput(field, input, item, fx).map((v) => [v]), fc.constant({}));
    return fc.oneof(...options);
  }
  if (isInputObjectType(inner)) {
    const fields = Object.values(inner.getFields());
    const valid = validObjectInput(field, inner, fx);
    options.push(
      fc.constantFrom(...fields).chain((f) => hostileInput(field, f, f.type, fx).map((v) => new JsonMembers([...Object.entries(valid).filter(([k]) => k !== f.name), [f.name, v]]))),
      fc.constantFrom('__proto__', 'constructor', 'fz', 'id', 'role').map((k) => new JsonMembers([...Object.entries(valid), [k, 1]])),
      fc.constantFrom('x', 1, true).map((v) => v),
    );
    const required = fields.filter((f) => isNonNullType(f.type)).map((f) => f.name);
    if (required.length) options.push(fc.constantFrom(...required).map((name) => Object.fromEntries(Object.entries(valid).filter(([k]) => k !== name))));
    return fc.oneof(...options);
  }
  if (isEnumType(inner)) {
    options.push(fc.string({ maxLength: 8 }).filter((s) => !inner.getValue(s)), fc.constant(1));
    return fc.oneof(...options);
  }
  options.push(fc.constant({}), fc.constant([[1]]));
  switch (inner.name) {
    case 'Int':
      options.push(fc.constantFrom(...INVALID_INTS).map((t) => new RawJson(t)));
      break;
    case 'Boolean':
      options.push(fc.constantFrom('true', 1, 0, 'false'));
      break;
    case 'DateTime':
      options.push(fc.constantFrom('2020-02-30', '275760-09-13T00:00:00Z', '2020-01-01T25:00:00Z', '2020-01-01T00:00:00+25:00', 'yesterday', '', 1, true, '1e309'), taintedString());
      break;
    case 'ID':
      // No resource has such an id: NOT_FOUND, or refused by type.
      options.push(taintedString(), fc.string({ minLength: 1, maxLength: 16 }).map((s) => `fz${s}`), fc.constant(new LongString('x'.repeat(100_000))), fc.constant(true), fc.constant(1.5));
      break;
    default: {
      const rules = fx.stringRules[input.name];
      options.push(rules ? hostileValue(rules) : taintedString(), taintedString(), fc.constantFrom(1, true, 1.5));
    }
  }
  return fc.oneof(...options);
}

/** The same hostility written in the document (only what a literal can say). */
function hostileLiteral(input: Input): fc.Arbitrary<string> {
  const named = getNamedType(input.type).name;
  const options: fc.Arbitrary<string>[] = [
    // A forbidden character as a \u escape; a lone surrogate escape the parser must refuse.
    taintedString().map((s) => JSON.stringify(s)),
    fc.constantFrom('{ fz: 1 }', '[[[[1]]]]', '$undeclared'),
  ];
  if (isNonNullType(input.type)) options.push(fc.constant('null'));
  if (named === 'Int') options.push(fc.constantFrom(...INVALID_INTS.filter((t) => !t.startsWith('{') && !t.startsWith('['))));
  else if (named !== 'ID' && named !== 'String') options.push(fc.constantFrom('"x"', '1e309'));
  else options.push(fc.constantFrom('1.5', 'true'));
  return fc.oneof(...options);
}

/** `{ __typename }` for a field of an object type, nothing for a scalar. */
export const printSelection = (field: GraphQLField<unknown, unknown>): string => {
  const type = getNamedType(field.type);
  return isObjectType(type) || isAbstractType(type) ? ' { __typename }' : '';
};

const printTypeRef = (type: GraphQLInputType): string => type.toString();

/**
 * An operation on one root field, every argument a variable with a valid value, except `hostileArg`:
 * its hostile `variable` value, or its hostile `literal` written in the document; `extra` is
 * written among the arguments.
 */
export function fieldOperation(
  operation: GraphQLCase['operation'],
  field: GraphQLField<unknown, unknown>,
  fx: GraphQLFixtures,
  hostile: { arg?: string; variable?: unknown; literal?: string; extra?: string; what: string } = { what: 'valid' },
): GraphQLCase {
  const args = field.args;
  const asVariable = args.filter((a) => a.name !== hostile.arg || hostile.literal === undefined);
  const defs = asVariable.map((a) => `$${a.name}: ${printTypeRef(a.type)}`);
  const uses = args.map((a) => (a.name === hostile.arg && hostile.literal !== undefined ? `${a.name}: ${hostile.literal}` : `${a.name}: $${a.name}`));
  if (hostile.extra) uses.push(hostile.extra);
  const query = `${operation} Fuzz${defs.length ? `(${defs.join(', ')})` : ''} { ${field.name}${uses.length ? `(${uses.join(', ')})` : ''}${printSelection(field)} }`;
  const variables = new JsonMembers(asVariable.map((a) => [a.name, a.name === hostile.arg ? hostile.variable : validInput(field.name, a, fx)]));
  return { operation, body: `{"query":${JSON.stringify(query)},"variables":${toJsonText(variables)}}`, hostile: hostile.what };
}

/** Hostile operations on one root field. */
export function hostileFieldCase(operation: GraphQLCase['operation'], field: GraphQLField<unknown, unknown>, fx: GraphQLFixtures): fc.Arbitrary<GraphQLCase> {
  const args = field.args;
  const build = (arg: string | undefined, variable: unknown, literal: string | undefined, extra: string, what: string): GraphQLCase =>
    fieldOperation(operation, field, fx, { arg, variable, literal, extra, what });
  const options: fc.Arbitrary<GraphQLCase>[] = [
    // An argument the field does not have.
    fc.constantFrom('fz: 1', '__proto__: 1', 'constructor: "x"').map((extra) => build(undefined, undefined, undefined, extra, `unknown argument ${extra}`)),
  ];
  if (args.length) {
    options.push(
      fc.constantFrom(...args).chain((a) => hostileInput(field.name, a, a.type, fx).map((v) => build(a.name, v, undefined, '', `variable $${a.name}`))),
      fc.constantFrom(...args).chain((a) => hostileLiteral(a).map((lit) => build(a.name, undefined, lit, '', `literal ${a.name}: ${abbreviate(lit, 40)}`))),
    );
  }
  return fc.oneof(...options).map((c) => Object.assign(c, { [fc.toStringMethod]: () => `${c.hostile}: ${abbreviate(c.body, 400)}` }));
}

/** Bodies of a POST /graphql that are no GraphQL request: not JSON, not an object, fields of the wrong type. */
export function malformedGraphQLBody(): fc.Arbitrary<{ body: string; contentType: string }> {
  const q = '"{ me { id } }"';
  return fc.record({
    body: fc.oneof(
      fc.constantFrom(
        '{', '[]', '{"query":1}', '{"query":null}', '{"query":true}', '{"query":{}}', '{"query":[]}', '{"query":""}', '{"query":"{"}', '{"query":"}"}',
        '{}', 'null', '1', '"x"', '[{"query":"{ me { id } }"}]', `{"query":${q},"variables":"x"}`, `{"query":${q},"variables":[]}`, `{"query":${q},"variables":1}`,
        `{"query":${q},"extensions":1}`, `{"query":${q},"extensions":"x"}`, `{"query":${q},"operationName":1}`, `{"query":${q},"operationName":"Missing"}`,
        `{"query":${q},"extensions":{"persistedQuery":{"version":1,"sha256Hash":5}}}`, `{"query":${q},"extensions":{"persistedQuery":null}}`,
        `{"query":${q},"query":${q}}`, `{"query":${q},"variables":{"a":1,"a":2}}`,
        `{"query":${q},"extensions":{"persistedQuery":{"version":1,"sha256Hash":"${'0'.repeat(64)}"}}}`,
        `{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"${'0'.repeat(64)}"}}}`, `{"extensions":{"persistedQuery":{"version":2,"sha256Hash":"x"}}}`,
        '{"query":"query { me { id } } mutation { logout(refreshToken: \\"x\\") }"}', '{"query":"{ me { id } }","query":1}',
        `{"query":"${'{ me '.repeat(5_000)}"}`, `{"query":"{ ${Array.from({ length: 60 }, (_, i) => `a${i}: me { id }`).join(' ')} }"}`,
        '{"query":"{ me { id ...F } } fragment F on CurrentUser { ...F }"}',
        '\u0000', '{"query":"{ me { id } }\\u0000"}', '{"query":"\\ud800"}',
      ),
      fc.string({ maxLength: 40 }),
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)).filter((t) => !/"query"\s*:\s*"/.test(t)),
      fc.tuple(fc.string({ maxLength: 30 }), fc.jsonValue({ maxDepth: 2 })).map(([query, variables]) => JSON.stringify({ query: `{${query}`, variables })),
      deepValue().map((v) => `{"query":"{ me { id } }","variables":${v.text}}`),
    ),
    contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain'),
  }).map((c) => Object.assign(c, { [fc.toStringMethod]: () => `${c.contentType} ${abbreviate(c.body, 200)}` }));
}

/** GraphQL over GET with a query string that is no request: no query, bad JSON, a mutation, NUL, deep nesting. */
export function malformedGraphQLGet(): fc.Arbitrary<{ search: string }> {
  const e = encodeURIComponent;
  return fc.oneof(
    fc.constantFrom(
      `query=${e('{')}`, `query=${e('{ me { id } }')}&variables=${e('{')}`, `query=${e('{ me { id } }')}&variables=${e('[]')}`, `query=${e('{ me { id } }')}&extensions=x`,
      `query=${e('mutation { logout(refreshToken: "x") }')}`, `variables=${e('{}')}`, '', 'query=%00', 'query=%ED%A0%80', `query=${e('{ me '.repeat(1_000))}`,
      `query=${e('{ me { id } }')}&variables=${e('['.repeat(1_000) + ']'.repeat(1_000))}`, `query=${e('{ me { id } }')}&operationName=Missing`,
    ),
    fc.string({ maxLength: 40 }).map((q) => `query=${e(`{${q}`)}`),
    fc.tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 })).map(([q, v]) => `query=${e(`{${q}`)}&variables=${e(v)}`),
  ).map((search) => ({ search, [fc.toStringMethod]: () => abbreviate(search, 200) }));
}

/** An operation as the transports send it: its document and variables. */
export interface GraphQLOperation {
  query: string;
  variables?: Record<string, unknown>;
  hostile: string;
}

const withLabel = <T extends { hostile: string; query: string }>(c: T): T => Object.assign(c, { [fc.toStringMethod]: () => `${c.hostile}: ${abbreviate(c.query, 200)}` });

/**
 * Operations whose directives' arguments are bad, as literals and as variables: @stream's
 * initialCount below 0, null or of another type, @defer's and @include's `if` null or not a
 * Boolean, arguments unknown or named twice, a label that is not static, a directive where it
 * cannot be. Each must be refused before anything runs, and never as an unexpected error.
 */
export function hostileDirectiveCase(): fc.Arbitrary<GraphQLOperation> {
  const literals = ['-1', 'null', '-2147483648', '2147483648', '1.5', '"1"', 'true', '[1]', '{ a: 1 }', '$undeclared', 'ONE'];
  const values: unknown[] = [-1, null, -2147483648, 2147483648, 1.5, '1', true, [], {}, [-1]];
  return fc.oneof(
    fc.constantFrom(...literals).map((v) => ({ query: `{ docs @stream(initialCount: ${v}) { slug } }`, hostile: `@stream(initialCount: ${v})` })),
    fc.tuple(fc.constantFrom(...values), fc.constantFrom('Int', 'Int = 2', 'Int!')).map(([n, type]) => ({
      query: `query ($n: ${type}) { docs @stream(initialCount: $n) { slug } }`,
      variables: { n },
      hostile: `@stream(initialCount: $n: ${type}) with ${JSON.stringify(n)}`,
    })),
    fc.constantFrom('null', '"x"', '1', '[true]', '$undeclared').map((v) => ({ query: `{ docs { slug } ... @defer(if: ${v}) { more: docs { title } } }`, hostile: `@defer(if: ${v})` })),
    fc.tuple(fc.constantFrom(null, 'x', 1, [true], {}), fc.constantFrom('include', 'skip', 'defer')).map(([b, directive]) => ({
      query: directive === 'defer' ? 'query ($b: Boolean = true) { docs { slug } ... @defer(if: $b) { more: docs { title } } }' : `query ($b: Boolean = true) { docs @${directive}(if: $b) { slug } }`,
      variables: { b },
      hostile: `@${directive}(if: $b) with ${JSON.stringify(b)}`,
    })),
    fc.tuple(fc.constantFrom(1, null, 'x'), fc.string({ maxLength: 8 })).map(([l, s]) => ({
      query: `query ($l: String) { docs @stream(label: $l, initialCount: 1) { slug } ... @defer(label: ${JSON.stringify(s)}) { a: docs { slug } } ... @defer(label: ${JSON.stringify(s)}) { b: docs { slug } } }`,
      variables: { l },
      hostile: 'a label that is a variable, two labels alike',
    })),
    fc.constantFrom(
      '{ docs @skip(if: true, if: false) { slug } }',
      '{ docs @stream(initialCount: 1, initialCount: -1) { slug } }',
      '{ docs @include(iff: true) { slug } }',
      '{ docs @include { slug } }',
      '{ docs @stream(foo: 1) { slug } }',
      '{ docs @nope(x: 1) { slug } }',
      '{ docs @include(if: true) @include(if: false) { slug } }',
      'query @stream { docs { slug } }',
      '{ me @stream(initialCount: -1) { id } }',
      '{ docs { slug @stream(initialCount: -1) } }',
      'mutation { logout(refreshToken: "x") @defer(if: null) }',
      'subscription { events @stream(initialCount: -1) { id } }',
      'subscription { ... @defer { events { id } } }',
    ).map((query) => ({ query, hostile: 'a directive misused' })),
  ).map((c) => withLabel<GraphQLOperation>(c));
}

/** Media types a GraphQL POST is refused in (415): what a browser sends cross-site, others, and garbage. */
export type GraphQLEncoding = 'json' | 'multipart' | 'urlencoded' | 'text/plain' | 'none' | 'garbage';

export interface EncodedPost {
  encoding: GraphQLEncoding;
  /** Whether the operation may run when sent as JSON (otherwise it must be refused). */
  runs: boolean;
  contentType?: string;
  body: string;
  hostile: string;
}

/** A Content-Type that is no JSON type a GraphQL POST may have (printable ASCII, as a header must be). */
const garbageContentType = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom('application/graphql', 'application/jsonx', 'application/x-json', 'text/json', 'application/xml', '*/*', ';', 'text/plain, application/json'),
    fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz/+;=-_. ABCJ"\',*'.split('')), minLength: 1, maxLength: 24 }),
  ).filter((t) => t.trim() === t && t.length > 0 && !/^application\/(?:graphql\+)?json(?:;|$)/.test(t.split(',')[0]!));

/**
 * An operation (hostile or not, a mutation among them) POSTed in one of the encodings: JSON, whose
 * answer is the operation's, or any other, which is refused as a whole with 415.
 */
export function encodedGraphQLPost(): fc.Arbitrary<EncodedPost> {
  const operation = fc.oneof(
    hostileDirectiveCase(),
    // Operations that run as JSON. The mutation would rename Ada (a change the fuzz sees): as JSON,
    // one that changes nothing runs instead.
    fc.constantFrom<GraphQLOperation>(
      { query: 'mutation { updateMe(name: "Changed by a form") { name } }', hostile: 'a mutation' },
      { query: '{ __typename }', hostile: 'a plain query' },
    ),
  );
  return fc.tuple(operation, fc.constantFrom<GraphQLEncoding>('json', 'multipart', 'urlencoded', 'text/plain', 'none', 'garbage'), garbageContentType(), fc.boolean()).map(([sent, encoding, garbage, twice]) => {
    const op = encoding === 'json' && sent.hostile === 'a mutation' ? { query: 'mutation { logout(refreshToken: "fuzz-not-a-token") }', hostile: sent.hostile } : sent;
    const json = JSON.stringify({ query: op.query, ...(op.variables ? { variables: op.variables } : {}) });
    const what = `${op.hostile} as ${encoding}`;
    const runs = op.hostile === 'a mutation' || op.hostile === 'a plain query';
    switch (encoding) {
      case 'json':
        return { encoding, runs, contentType: 'application/json', body: json, hostile: what };
      case 'multipart': {
        const part = (name: string, value: string) => `--B0undary\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
        // GraphQL multipart requests name `operations` (once, or twice as a field) and `map`.
        const body = part('operations', json) + (twice ? part('operations', '{"query":"{ __typename }"}') : '') + part('map', '{}') + '--B0undary--\r\n';
        return { encoding, runs, contentType: 'multipart/form-data; boundary=B0undary', body, hostile: what };
      }
      case 'urlencoded': {
        const fields = new URLSearchParams({ query: op.query, ...(op.variables ? { variables: JSON.stringify(op.variables) } : {}) });
        if (twice) fields.append('query', '{ __typename }');
        return { encoding, runs, contentType: 'application/x-www-form-urlencoded', body: fields.toString(), hostile: what };
      }
      case 'text/plain':
        return { encoding, runs, contentType: 'text/plain', body: json, hostile: what };
      case 'none':
        return { encoding, runs, body: json, hostile: what };
      case 'garbage':
        return { encoding, runs, contentType: garbage, body: json, hostile: `${what} ${JSON.stringify(garbage)}` };
    }
  }).map((c) => Object.assign(c, { [fc.toStringMethod]: () => `${c.hostile}: ${abbreviate(c.body, 200)}` }));
}
