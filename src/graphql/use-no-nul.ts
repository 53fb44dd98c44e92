// The one rule for NUL (src/http/validation.ts) on the GraphQL side: a String argument or variable
// holding U+0000 (which PostgreSQL text cannot store) ends the operation before any resolver runs,
// with a BAD_USER_INPUT error naming it, as REST's 400 does. `ID` arguments are left to the
// services, which answer an id no row can have with their NOT_FOUND, as the REST paths do.
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import {
  BREAK,
  getNamedType,
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
  if (variables) {
    const ids = new Set<string>();
    visit(document, { VariableDefinition: (node) => void (isId(schema, node) && ids.add(node.variable.name.value)) });
    for (const [name, value] of Object.entries(variables)) {
      if (ids.has(name)) continue;
      const path = nulPath(value);
      if (path) return [name, ...path].join('.');
    }
  }
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
