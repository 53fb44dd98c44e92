// The input rule (src/input.ts) on the GraphQL side: a String argument or variable holding U+0000
// (which PostgreSQL text cannot store), another control character or a lone surrogate, or a variable
// nested too deeply, ends the operation before any resolver runs with a BAD_USER_INPUT naming it, as
// REST's 400 does. Documents too deeply nested or too long are refused as they are parsed.
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import {
  BREAK,
  parse,
  getNamedType,
  isNamedType,
  isNonNullType,
  Kind,
  TypeInfo,
  typeFromAST,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLSchema,
  type GraphQLType,
} from 'graphql';
import { badInput } from '../errors.js';
import { inputProblem, stringProblem } from '../input.js';
import { MAX_DOCUMENT_TOKENS } from './document-caches.js';
import { appGraphQLError } from './errors.js';

/** An id, or a list of ids: left to the services, which answer an id no row can have with NOT_FOUND, as the REST paths do (src/ids.ts). */
const isIdType = (type: GraphQLType | null | undefined) => !!type && getNamedType(type).name === 'ID';
/** A required id (`ID!`): "" for it is missing, `<name>: must not be empty`, as REST's `?id=` is. */
const isRequiredId = (type: GraphQLType | null | undefined) => isNonNullType(type) && isNamedType(type.ofType) && isIdType(type.ofType);
const EMPTY = 'must not be empty';

/** The definition of the variable `name` (looked up only for a value the rule looks at twice). */
const definitionOf = (document: DocumentNode, name: string) =>
  document.definitions
    .flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION ? (d.variableDefinitions ?? []) : []))
    .find((v) => v.variable.name.value === name);

/** The argument (or variable) the input rule refuses, as a field path and the problem, or undefined. */
function refusedField(schema: GraphQLSchema, document: DocumentNode, variables: Readonly<Record<string, unknown>> | undefined): { field: string; problem: string } | undefined {
  // Cheap tests first: this runs for every operation, and almost none is refused.
  for (const [name, value] of Object.entries(variables ?? {})) {
    if (value === '') {
      const definition = definitionOf(document, name);
      if (definition && isRequiredId(typeFromAST(schema, definition.type))) return { field: name, problem: EMPTY };
      continue;
    }
    const found = inputProblem(value);
    if (!found) continue;
    const definition = definitionOf(document, name);
    if (!definition || !isIdType(typeFromAST(schema, definition.type))) return { field: [name, ...found.path].join('.'), problem: found.problem };
  }
  // A literal NUL or other control character can only be written as an escape (\u, \b, \f), or
  // raw as DEL: the lexer refuses the other raw control characters and any lone surrogate. An
  // empty string is written `""` (or `""""""`).
  const source = document.loc?.source.body;
  if (source !== undefined && !/\\[ubf]|\u007f|""/.test(source)) return undefined;
  let found: { field: string; problem: string } | undefined;
  const names: string[] = [];
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      // A variable's default value is named by its variable, an argument's value by its argument.
      VariableDefinition: { enter: (node) => void names.push(node.variable.name.value), leave: () => void names.pop() },
      Argument: { enter: (node) => void names.push(node.name.value), leave: () => void names.pop() },
      ObjectField: { enter: (node) => void names.push(node.name.value), leave: () => void names.pop() },
      StringValue(node) {
        const type = typeInfo.getInputType();
        const problem = node.value === '' ? (isRequiredId(type) ? EMPTY : undefined) : stringProblem(node.value);
        if (!problem) return undefined;
        if (problem !== EMPTY && isIdType(type)) return undefined;
        found = { field: names.join('.') || 'document', problem };
        return BREAK;
      },
    }),
  );
  return found;
}

/**
 * Braces, brackets and parentheses: far more than the depth limit (12) and any introspection query
 * need. graphql-js parses recursively, and a deeper document overflows its stack (a RangeError that
 * would be masked as "Unexpected error."), so it is a syntax error before it is parsed.
 */
export const MAX_DOCUMENT_NESTING = 64;

/** How deep `source` nests `{`, `[` and `(` outside strings and comments, stopping past `limit`. */
export function documentNesting(source: string, limit = MAX_DOCUMENT_NESTING): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < source.length && deepest <= limit; i++) {
    const c = source[i];
    if (c === '{' || c === '[' || c === '(') deepest = Math.max(deepest, ++depth);
    else if (c === '}' || c === ']' || c === ')') depth--;
    else if (c === '#') {
      while (i < source.length && source[i] !== '\n' && source[i] !== '\r') i++;
    } else if (c === '"') {
      if (source.startsWith('"""', i)) {
        const end = source.indexOf('"""', i + 3);
        i = end < 0 ? source.length : end + 2;
      } else {
        for (i++; i < source.length && source[i] !== '"' && source[i] !== '\n'; i++) if (source[i] === '\\') i++;
      }
    }
  }
  return deepest;
}

/** graphql-js's parse, stopping at MAX_DOCUMENT_TOKENS ("Document contains more than 1000 tokens. Parsing aborted."), so no huge AST is built or cached. */
const parseWithTokenLimit: typeof parse = (source, options) => parse(source, { ...options, maxTokens: MAX_DOCUMENT_TOKENS });

export function useNoNul(): Plugin {
  const refuse = (schema: GraphQLSchema, document: DocumentNode, variables: Readonly<Record<string, unknown>> | undefined) => {
    const refused = refusedField(schema, document, variables);
    if (!refused) return undefined;
    // The shape the error mask gives every AppError (src/graphql/errors.ts): a result set here is
    // not masked again. `data: null`, as when a resolver refuses its input.
    return { data: null, errors: [appGraphQLError(badInput(refused.field, refused.problem))] };
  };
  return {
    onParse({ params, setParseFn }) {
      const source: unknown = params.source;
      const text = typeof source === 'string' ? source : (source as { body?: unknown } | undefined)?.body;
      if (typeof text === 'string' && documentNesting(text) > MAX_DOCUMENT_NESTING) {
        throw createGraphQLError(`Syntax Error: the document is nested more than ${MAX_DOCUMENT_NESTING} levels deep.`, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
      }
      // A parse that Yoga's cache does not answer stops at MAX_DOCUMENT_TOKENS (graphql-js's own limit).
      setParseFn(parseWithTokenLimit);
    },
    onExecute({ args, setResultAndStopExecution }) {
      const result = refuse(args.schema, args.document, args.variableValues ?? undefined);
      if (result) setResultAndStopExecution(result);
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const result = refuse(args.schema, args.document, args.variableValues ?? undefined);
      if (result) setResultAndStopExecution(result);
    },
  };
}
