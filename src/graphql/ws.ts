// GraphQL over WebSocket (the graphql-ws protocol) on /graphql, for subscriptions (queries and
// mutations work too). Clients authenticate with connectionParams {authorization: "Bearer …"};
// an Authorization header on the upgrade request also works.
import type { IncomingMessage, Server } from 'node:http';
import type { GraphQLError } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { RequestContext } from '../context.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { RATE_LIMITED_MESSAGE } from '../modules/limits/service.js';
import { createSharedSubscribe } from '../modules/events/shared-execution.js';
import { formatGraphQLError, type createOperationCache } from './http.js';
import { schema } from './schema.js';

/** What graphql-ws keeps per socket (it wants an index signature). */
type Extra = Record<PropertyKey, unknown> & {
  request: IncomingMessage;
  context?: RequestContext;
};

export function attachGraphQLWebSocket({
  server,
  log,
  operations,
  contextFor,
  admit,
}: {
  server: Server;
  log: Logger;
  operations: ReturnType<typeof createOperationCache>;
  contextFor(request: IncomingMessage, authorization: string | undefined): RequestContext;
  /** Counts one operation against the caller's rate-limit budget; false when refused. */
  admit(context: RequestContext): Promise<boolean>;
}) {
  const wss = new WebSocketServer({ server, path: '/graphql' });
  const format = (errors: readonly GraphQLError[]) => errors.map((e) => formatGraphQLError(e, log).toJSON());
  const handle = useServer<Record<string, unknown> | undefined, Extra>(
    {
      schema,
      // Identical subscriptions share one execution result per event.
      subscribe: createSharedSubscribe(),
      onConnect: (ctx) => {
        const fromParams = ctx.connectionParams?.authorization;
        const authorization = typeof fromParams === 'string' ? fromParams : ctx.extra.request.headers.authorization;
        ctx.extra.context = contextFor(ctx.extra.request, authorization);
        return true;
      },
      onSubscribe: async (ctx, _id, payload) => {
        const context = ctx.extra.context!;
        if (!(await admit(context))) return [formatGraphQLError(new AppError('RATE_LIMITED', RATE_LIMITED_MESSAGE), log)];
        let document;
        try {
          document = operations.parse(payload.query);
        } catch (error) {
          return [error as GraphQLError];
        }
        const errors = operations.validate(schema, document);
        if (errors.length) return errors;
        return {
          schema,
          document,
          variableValues: payload.variables,
          operationName: payload.operationName,
          contextValue: context,
        };
      },
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: format(result.errors) } : undefined),
      onError: (_ctx, _id, _payload, errors) => format(errors),
    },
    wss,
  );
  return {
    async close(): Promise<void> {
      for (const client of wss.clients) client.close(1001, 'Going away');
      await handle.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
