// The query cost limit: an operation that would fetch too much is refused before it runs, on HTTP,
// SSE and WebSocket alike (the depth and alias limits alone still allow a million nodes). Each field
// costs 1 and a connection multiplies what is inside it by its `first` (@pothos/plugin-complexity,
// costs declared in src/graphql/builder.ts and pageCost); a document with no connection is costed once.
import { complexityFromQuery } from '@pothos/plugin-complexity';
import { BREAK, getOperationAST, Kind, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type ExecutionArgs, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { AppError } from '../errors.js';
import { appGraphQLError, isGraphQLError } from './errors.js';

/** The largest cost an operation may have. 100 lessons with their authors and each author's 100 latest (title and pageInfo) cost 60,601; one level more, 5 million. */
export const MAX_QUERY_COST = 100_000;

/** The one operation that runs, with the fragments: complexityFromQuery measures the first operation. */
function selectedOperation(document: DocumentNode, operationName: string | null | undefined): DocumentNode | undefined {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (operations.length === 1) return document;
  const operation = getOperationAST(document, operationName);
  if (!operation) return undefined;
  return { ...document, definitions: [operation, ...document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION)] };
}

/** The cost of `document`'s one operation, or undefined when it cannot run anyway (graphql-js reports why). */
function queryCost(document: DocumentNode, args: Pick<ExecutionArgs, 'schema' | 'variableValues' | 'contextValue'>): number | undefined {
  try {
    return complexityFromQuery(document, { schema: args.schema, ctx: (args.contextValue ?? {}) as object, variables: { ...args.variableValues } }).complexity;
  } catch (error) {
    // Variables that cannot be coerced: execution refuses them with graphql-js's own error.
    if (isGraphQLError(error)) return undefined;
    throw error;
  }
}

/** Whether a field of `document` has a cost computed from its arguments (a connection's `first`). */
function hasArgumentCosts(schema: GraphQLSchema, document: DocumentNode): boolean {
  const types = new TypeInfo(schema);
  let found = false;
  visit(
    document,
    visitWithTypeInfo(types, {
      Field() {
        if (typeof types.getFieldDef()?.extensions.complexity !== 'function') return undefined;
        found = true;
        return BREAK;
      },
    }),
  );
  return found;
}

export function useQueryCost(max = MAX_QUERY_COST): Plugin {
  /** Per document of one operation: its cost if no field's cost depends on arguments, else null. */
  const fixedCosts = new WeakMap<DocumentNode, number | null>();
  const costOf = (args: ExecutionArgs): number | undefined => {
    const known = fixedCosts.get(args.document);
    if (typeof known === 'number') return known;
    const operation = selectedOperation(args.document, args.operationName);
    const cost = operation && queryCost(operation, args);
    if (known === undefined && cost !== undefined) {
      // A document of one operation is costed as it is (selectedOperation hands it back).
      fixedCosts.set(args.document, operation === args.document && !hasArgumentCosts(args.schema, args.document) ? cost : null);
    }
    return cost;
  };
  const refuse = (args: ExecutionArgs) => {
    const cost = costOf(args);
    if (cost === undefined || cost <= max) return undefined;
    const message = `Query cost ${cost} exceeds the limit of ${max}: ask for fewer nodes (first) or fewer fields. Each field costs 1, and a connection counts what is inside it once per node its first asks for.`;
    return { errors: [appGraphQLError(new AppError('BAD_USER_INPUT', message, { details: { cost, limit: max } }))] };
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const result = refuse(args);
      if (result) setResultAndStopExecution(result);
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const result = refuse(args);
      if (result) setResultAndStopExecution(result);
    },
  };
}
