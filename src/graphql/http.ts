// GraphQL over HTTP for plain JSON requests (GET and POST), on graphql-http: the GraphQL
// Foundation's reference implementation of the GraphQL-over-HTTP spec. It works on the node
// request directly, without the fetch-API layer that made Yoga's POST path cost ~400 µs a
// request (see bench/). Yoga still serves GraphiQL (and, later, subscriptions) on the same path.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { parse, specifiedRules, validate, type DocumentNode, type GraphQLError, type GraphQLSchema, type Source, type ValidationRule } from 'graphql';
import { createHandler } from 'graphql-http';
import { LRUCache } from 'lru-cache';
import type { RequestContext } from '../context.js';
import { AppError } from '../errors.js';
import { readBodyText } from '../http/body.js';
import type { Logger } from '../logger.js';
import { isGraphQLError, maskGraphQLError } from './errors.js';
import { schema } from './schema.js';

/** The contract's query limits, shared with the Yoga endpoint. */
export const MAX_DEPTH = { n: 12, ignoreIntrospection: true, flattenFragments: true } as const;
export const MAX_ALIASES = { n: 50 } as const;

/** graphql-http wants an index signature on the context type. */
type OperationContext = RequestContext & Record<PropertyKey, unknown>;

const rules: readonly ValidationRule[] = [...specifiedRules, maxDepthRule(MAX_DEPTH), maxAliasesRule(MAX_ALIASES)];

/**
 * Parse and validate (with the contract's limits), each done once per distinct operation: most
 * clients send a handful of them. Shared by the HTTP and WebSocket transports.
 */
export function createOperationCache() {
  const documents = new LRUCache<string, DocumentNode>({ max: 1000 });
  const validated = new WeakMap<DocumentNode, readonly GraphQLError[]>();
  return {
    parse(source: string | Source): DocumentNode {
      const key = typeof source === 'string' ? source : source.body;
      let document = documents.get(key);
      if (!document) {
        document = parse(source);
        documents.set(key, document);
      }
      return document;
    },
    validate(s: GraphQLSchema, document: DocumentNode): readonly GraphQLError[] {
      let errors = validated.get(document);
      if (!errors) {
        try {
          errors = validate(s, document, rules);
        } catch (error) {
          // graphql-armor's rules throw their refusal to stop validating early.
          if (!isGraphQLError(error)) throw error;
          errors = [error];
        }
        validated.set(document, errors);
      }
      return errors;
    },
  };
}

/** Masks an error for clients and drops Yoga's transport hint (`extensions.http`). */
export function formatGraphQLError(error: Readonly<GraphQLError | Error>, log: Logger): GraphQLError {
  const masked = maskGraphQLError(error, log) as GraphQLError;
  if (!masked.extensions?.http) return masked;
  const { http: _http, ...extensions } = masked.extensions;
  return Object.assign(masked, { extensions });
}

export function createGraphQLHttpHandler({ log, bodyLimit, operations }: { log: Logger; bodyLimit: number; operations: ReturnType<typeof createOperationCache> }) {
  // An error that sets the HTTP status itself (RATE_LIMITED: 429 with Retry-After).
  const statusOverride = new WeakMap<RequestContext, { status: number; headers?: Record<string, string> }>();

  const handler = createHandler<IncomingMessage, RequestContext, OperationContext>({
    schema,
    context: (req) => req.context as OperationContext,
    parse: (source) => operations.parse(source),
    validate: (s, document) => operations.validate(s, document),
    // Replaces the specified rules with ours (which include them): see `validate` above.
    validationRules: () => rules,
    onOperation: (req, _args, result) => {
      for (const error of result.errors ?? []) {
        const original = (error as GraphQLError).originalError;
        if (original instanceof AppError && original.code === 'RATE_LIMITED') {
          statusOverride.set(req.context, { status: 429, headers: original.headers });
        }
      }
    },
    formatError: (error) => formatGraphQLError(error, log),
  });

  return async function handleGraphQL(req: IncomingMessage, res: ServerResponse, ctx: RequestContext): Promise<void> {
    const body = req.method === 'POST' ? await readBodyText(req, bodyLimit) : null;
    const [text, init] = await handler({
      method: req.method ?? 'GET',
      url: req.url ?? '/graphql',
      headers: req.headers,
      body,
      raw: req,
      context: ctx,
    });
    const override = statusOverride.get(ctx);
    res.writeHead(override?.status ?? init.status, { ...init.headers, ...override?.headers });
    res.end(text);
  };
}
