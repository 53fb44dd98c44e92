// Bad arguments to directives are BAD_USER_INPUT, HTTP 400, like any other bad input, on every
// transport, and nothing runs.
import {
  BREAK,
  getDirectiveValues,
  getOperationAST,
  getVariableValues,
  Kind,
  visit,
  type ASTNode,
  type ASTVisitor,
  type DirectiveNode,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLError,
  type OperationDefinitionNode,
  type ValidationContext,
  type ValueNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { AppError, badInput } from '../errors.js';
import { appGraphQLError, isGraphQLError } from './errors.js';

/** A refusal of a directive's argument: BAD_USER_INPUT, with HTTP 400 whatever the Accept header. */
function refusal(error: AppError, nodes: readonly ASTNode[] | undefined): GraphQLError {
  const refused = appGraphQLError(error, { nodes, path: undefined });
  // `spec: false`: Yoga would mark a validation error as one GraphQL over HTTP answers with 200.
  Object.assign(refused.extensions, { http: { status: 400, spec: false } });
  return refused;
}

const badInitialCount = (node: ASTNode) => refusal(badInput('initialCount', 'must be an integer of at least 0'), [node]);

/** Whether `value` (a literal or a variable's value) is no count @stream can start with. */
const isBadInitialCount = (value: unknown) => typeof value !== 'number' || value < 0;

/** A validation rule: a literal `initialCount` below 0, or null (a variable's value is checked as it runs). */
function StreamInitialCountRule(context: ValidationContext): ASTVisitor {
  return {
    Directive(node) {
      if (node.name.value !== 'stream') return;
      const value = node.arguments?.find((a) => a.name.value === 'initialCount')?.value;
      if (value?.kind === Kind.NULL || (value?.kind === Kind.INT && Number(value.value) < 0)) context.reportError(badInitialCount(value));
    },
  };
}

/** Where each directive of `document` is, and where its arguments are: [start, end) offsets. */
function directiveSpans(document: DocumentNode): { directives: Set<number>; argumentSpans: [number, number][] } {
  const directives = new Set<number>();
  const argumentSpans: [number, number][] = [];
  visit(document, {
    Directive(node) {
      if (node.loc) directives.add(node.loc.start);
      const args = node.arguments ?? [];
      const first = args[0]?.loc;
      const last = args[args.length - 1]?.loc;
      if (first && last) argumentSpans.push([first.start, last.end]);
    },
  });
  return { directives, argumentSpans };
}

/**
 * Whether a validation error is about a directive's arguments: one of its nodes is in a directive's
 * argument list (a value, a variable, an argument), or it is a directive whose argument is missing
 * or not static (the defer/stream label).
 */
function aboutDirectiveArguments(error: GraphQLError, spans: ReturnType<typeof directiveSpans>): boolean {
  return (error.nodes ?? []).some((node) => {
    const start = node.loc?.start;
    if (start === undefined) return false;
    if (spans.argumentSpans.some(([from, to]) => start >= from && start < to)) return true;
    return node.kind === Kind.DIRECTIVE && spans.directives.has(start) && /\bargument\b/.test(error.message);
  });
}

/** The directives whose arguments hold a variable, per document: only those can change from one run to the next. */
const withVariables = new WeakMap<DocumentNode, boolean>();

function hasVariable(value: ValueNode): boolean {
  if (value.kind === Kind.VARIABLE) return true;
  if (value.kind === Kind.LIST) return value.values.some(hasVariable);
  if (value.kind === Kind.OBJECT) return value.fields.some((f) => hasVariable(f.value));
  return false;
}

function directivesWithVariables(document: DocumentNode): boolean {
  let found = withVariables.get(document);
  if (found === undefined) {
    found = false;
    visit(document, {
      Directive(node) {
        if (!(node.arguments ?? []).some((a) => hasVariable(a.value))) return undefined;
        found = true;
        return BREAK;
      },
    });
    withVariables.set(document, found);
  }
  return found;
}

/** The directives the operation can meet: its own, and those of the fragments it spreads, at any depth. */
function reachableDirectives(document: DocumentNode, operation: OperationDefinitionNode): DirectiveNode[] {
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const found: DirectiveNode[] = [];
  const seen = new Set<string>();
  const queue: ASTNode[] = [operation];
  while (queue.length) {
    visit(queue.pop()!, {
      Directive: (node) => void found.push(node),
      FragmentSpread(node) {
        const fragment = fragments.get(node.name.value);
        if (fragment && !seen.has(fragment.name.value)) {
          seen.add(fragment.name.value);
          queue.push(fragment);
        }
      },
    });
  }
  return found;
}

/** The refusal of an operation about to run whose directives' arguments its variables make bad, or undefined. */
function refuseVariables(args: ExecutionArgs): ExecutionResult | undefined {
  if (!directivesWithVariables(args.document)) return undefined;
  const operation = getOperationAST(args.document, args.operationName);
  if (!operation) return undefined;
  const { coerced } = getVariableValues(args.schema, operation.variableDefinitions ?? [], args.variableValues ?? {}, { maxErrors: 1 });
  // Variables that cannot be coerced: execution refuses them with its own BAD_USER_INPUT.
  if (!coerced) return undefined;
  for (const node of reachableDirectives(args.document, operation)) {
    const directive = args.schema.getDirective(node.name.value);
    if (!directive) continue;
    let values: Record<string, unknown> | undefined;
    try {
      values = getDirectiveValues(directive, { directives: [node] }, coerced);
    } catch (error) {
      if (!isGraphQLError(error)) throw error;
      return { errors: [refusal(new AppError('BAD_USER_INPUT', error.message), error.nodes ?? [node])] };
    }
    if (directive.name === 'stream' && values && isBadInitialCount(values.initialCount)) {
      return { errors: [badInitialCount(node.arguments?.find((a) => a.name.value === 'initialCount') ?? node)] };
    }
  }
  return undefined;
}

/**
 * - @stream's initialCount must be an integer of at least 0 (its type lets a negative one or null
 *   through, and the executor then fails an invariant);
 * - validation errors in a directive's arguments (`@defer(if: null)`, unknown, missing or repeated
 *   arguments, variables of the wrong type) get this code, and 400 under application/json too;
 * - variables are checked as the operation runs: `if: $b` given null passes validation, and
 *   graphql-js's error for it has no code.
 */
export function useDirectiveArguments(): Plugin {
  return {
    onValidate({ addValidationRule, params }) {
      addValidationRule(StreamInitialCountRule);
      return ({ valid, result, setResult }) => {
        if (valid) return;
        const spans = directiveSpans(params.documentAST);
        if (!spans.directives.size) return;
        let changed = false;
        const errors = result.map((error) => {
          if (error.extensions?.code === 'BAD_USER_INPUT' || !aboutDirectiveArguments(error, spans)) return error;
          changed = true;
          return refusal(new AppError('BAD_USER_INPUT', error.message), error.nodes);
        });
        if (changed) setResult(errors);
      };
    },
    onExecute({ args, setResultAndStopExecution }) {
      const result = refuseVariables(args);
      if (result) setResultAndStopExecution(result);
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const result = refuseVariables(args);
      if (result) setResultAndStopExecution(result);
    },
  };
}
