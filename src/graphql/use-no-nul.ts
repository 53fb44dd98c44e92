// The one rule for NUL (src/http/validation.ts) on the GraphQL side: a String argument or variable
// holding U+0000 (which PostgreSQL text cannot store) ends the operation before any resolver runs,
// with a BAD_USER_INPUT error naming it, as REST's 400 does. `ID` arguments are left to the
// services, which answer an id no row can have with their NOT_FOUND, as the REST paths do.
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import {
  BREAK,
  getNamedType,
  Kind,
  TypeInfo,
  typeFromAST,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLSchema,
  type VariableDefinitionNode,
} from 'graphql';
import { badInput } from '../errors.js';
import { nulPath } from '../http/validation.js';

const isId = (schema: GraphQLSchema, definition: VariableDefinitionNode) => {
  const type = typeFromAST(schema, definition.type);
  return !!type && getNamedType(type).name === 'ID';
};

/** The argument (or variable) that holds a NUL, as a field path, or undefined. */
function nulField(schema: GraphQLSchema, document: DocumentNode, variables: Readonly<Record<string, unknown>> | undefined): string | undefined {
  // Cheap tests first: this runs for every operation, and almost none holds a NUL.
  for (const [name, value] of Object.entries(variables ?? {})) {
    const path = nulPath(value);
    if (!path) continue;
    const definition = document.definitions
      .flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION ? (d.variableDefinitions ?? []) : []))
      .find((v) => v.variable.name.value === name);
    if (!definition || !isId(schema, definition)) return [name, ...path].join('.');
  }
  // A literal NUL can only be written as a \u escape (the lexer refuses the raw character).
  const source = document.loc?.source.body;
  if (source !== undefined && !source.includes('\\u')) return undefined;
  let found: string | undefined;
  const names: string[] = [];
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Argument: { enter: (node) => void names.push(node.name.value), leave: () => void names.pop() },
      ObjectField: { enter: (node) => void names.push(node.name.value), leave: () => void names.pop() },
      StringValue(node) {
        if (!node.value.includes('\0')) return undefined;
        const type = typeInfo.getInputType();
        if (type && getNamedType(type).name === 'ID') return undefined;
        found = names.join('.') || 'document';
        return BREAK;
      },
    }),
  );
  return found;
}

export function useNoNul(): Plugin {
  const refuse = (schema: GraphQLSchema, document: DocumentNode, variables: Readonly<Record<string, unknown>> | undefined) => {
    const field = nulField(schema, document, variables);
    if (!field) return undefined;
    // The shape the error mask gives every AppError (src/graphql/errors.ts): a result set here is
    // not masked again. `data: null`, as when a resolver refuses its input.
    const error = badInput(field, 'must not contain NUL characters');
    return { data: null, errors: [createGraphQLError(error.message, { extensions: { code: error.code, status: error.status, details: error.details } })] };
  };
  return {
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
