// GraphQL over WebSocket (graphql-ws) on /graphql; every operation runs through Yoga's envelop
// pipeline, so HTTP's plugins apply. Credentials come in connectionParams.authorization or the
// upgrade's headers. A socket must earn its place: connection_init within WEBSOCKET_INIT_TIMEOUT_MS
// (else 4408) with a caller (else 4403), and at most CONNECTIONS_PER_ADDRESS per address (else 429).
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { GraphQLError } from 'graphql';
import { CloseCode, type ServerOptions } from 'graphql-ws';
import { createGraphQLError, type YogaServerInstance } from 'graphql-yoga';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { RequestContext } from '../context.js';
import { isDatabaseUnavailable, MISSING_OR_INVALID_TOKEN, type AppError } from '../errors.js';
import { duplicateKey } from '../http/body.js';
import { errorBody } from '../http/errors.js';
import { tooManyConnections, type AddressConnections } from '../http/connection-limits.js';
import type { NodeServerContext } from '../http/plugins/server-context.js';
import type { Logger } from '../logger.js';
import type { ConnectionRefusalReason } from '../metrics.js';
import { withRequestErrorCodes } from './use-bad-request-status.js';
import { formatGraphQLError, isGraphQLError } from './errors.js';

/** An operation's context is a WebSocket operation's: onSubscribe below builds it with the socket. */
export const isWebSocketContext = (context: object): context is RequestContext & { socket: WebSocket } => 'socket' in context && 'caller' in context;

/** What graphql-ws keeps per socket (it wants an index signature). */
type Extra = Record<PropertyKey, unknown> & {
  request: IncomingMessage;
  socket: WebSocket;
  /** The credential the connection was opened with (connectionParams, or the upgrade's header). */
  authorization?: string;
};

/** How long a socket may stay open without a connection_init (graphql-ws then closes it with 4408). */
export const WEBSOCKET_INIT_TIMEOUT_MS = 10_000;

const GRAPHQL_PATH = '/graphql';
/** WebSocket's close code 1013 (RFC 6455 registry): a server condition the client may retry after. */
const TRY_AGAIN_LATER = 1013;

/** The envelop's execute/subscribe, carried to graphql-ws's own hooks in the root value. */
interface Enveloped {
  execute: NonNullable<ServerOptions['execute']>;
  subscribe: NonNullable<ServerOptions['subscribe']>;
}

export function attachGraphQLWebSocket({
  server,
  yoga,
  log,
  contextFor,
  messageLimit,
  connections,
  addressOf,
  initTimeoutMs = WEBSOCKET_INIT_TIMEOUT_MS,
  onRefused,
}: {
  server: Server;
  yoga: YogaServerInstance<NodeServerContext, RequestContext>;
  log: Logger;
  contextFor(request: IncomingMessage, authorization: string | undefined): RequestContext;
  /** The largest message, in bytes: BODY_LIMIT_BYTES, as for a request body. */
  messageLimit: number;
  /** The WebSocket and SSE connections open per client address (CONNECTIONS_PER_ADDRESS). */
  connections: AddressConnections;
  /** The client address of an upgrade request, as every request's is computed (TRUST_PROXY). */
  addressOf(request: IncomingMessage): string;
  /** How long a socket may wait before its connection_init. */
  initTimeoutMs?: number;
  /** Told of every socket refused or closed before it was accepted (the metric). */
  onRefused(reason: ConnectionRefusalReason): void;
}) {
  // A larger message closes the socket with 1009 (Message Too Big) before it is parsed, as HTTP
  // refuses a body over the limit with 413.
  const wss = new WebSocketServer({ noServer: true, path: GRAPHQL_PATH, maxPayload: messageLimit });
  // The upgrade is counted against its address before ws accepts it: one over the limit is
  // answered 429 and closed, and never costs a WebSocket. The slot is the TCP socket's, given back
  // when it closes (a handshake ws refuses closes it too).
  const tooMany = upgradeRefusal(tooManyConnections(connections.perAddress));
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (pathOf(request.url) === GRAPHQL_PATH) {
      const release = connections.acquire(addressOf(request));
      if (!release) {
        onRefused('per_address');
        socket.on('error', () => socket.destroy());
        socket.once('finish', () => socket.destroy());
        socket.end(tooMany);
        return;
      }
      socket.once('close', release);
    }
    // Any other path: ws answers 400.
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };
  server.on('upgrade', onUpgrade);
  const refused = refuseDuplicateKeys(wss);
  const format = (errors: readonly GraphQLError[]) => errors.map((e) => formatGraphQLError(e, log).toJSON());
  const handle = useServer<Record<string, unknown> | undefined, Extra>(
    {
      execute: (args) => (args.rootValue as Enveloped).execute(args),
      subscribe: (args) => (args.rootValue as Enveloped).subscribe(args),
      // graphql-ws closes a socket without connection_init by then with 4408.
      connectionInitWaitTimeout: initTimeoutMs,
      onConnect: async (ctx) => {
        const { socket, request } = ctx.extra;
        if (refused.has(socket)) return false;
        const fromParams = ctx.connectionParams?.authorization;
        ctx.extra.authorization = typeof fromParams === 'string' ? fromParams : request.headers.authorization;
        // Credentials are checked as a request's are (the auth service, through a context): a
        // socket without a caller is closed with 4403. Its operations resolve the caller again
        // each (onSubscribe), so a credential revoked later stops them too.
        try {
          if (await contextFor(request, ctx.extra.authorization).caller()) return true;
        } catch (error) {
          // The database is unreachable (or worse): the client is told to come back, as HTTP's 503.
          if (isDatabaseUnavailable(error)) {
            log.warn({ err: error }, 'websocket: credentials not checked, the database is unavailable');
            socket.close(TRY_AGAIN_LATER, 'Service temporarily unavailable');
          } else {
            log.error({ err: error }, 'websocket: credentials check failed');
            socket.close(CloseCode.InternalServerError, 'Internal server error');
          }
          return false;
        }
        onRefused('websocket_credentials');
        // graphql-ws's own close after `false` is then a no-op (the socket is already closing).
        socket.close(CloseCode.Forbidden, MISSING_OR_INVALID_TOKEN);
        return false;
      },
      onClose: (ctx, code) => {
        if (code === CloseCode.ConnectionInitialisationTimeout && !ctx.connectionInitReceived) onRefused('websocket_init_timeout');
      },
      onSubscribe: async (ctx, _id, payload) => {
        if (refused.has(ctx.extra.socket)) return [createGraphQLError('Invalid message received', { extensions: { code: 'BAD_REQUEST' } })];
        // Each operation is a request of its own (Yoga's `context` option keeps this initial
        // context): its caller is resolved from the connection's credential when it runs, so a
        // session or key revoked, a token expired, a role lowered or a user deleted stops the
        // socket's later operations too.
        const initial = Object.assign(contextFor(ctx.extra.request, ctx.extra.authorization), {
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params: payload,
        });
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped(initial as unknown as Parameters<typeof yoga.getEnveloped>[0]);
        try {
          const document = parse(payload.query);
          const errors = validate(schema, document);
          if (errors.length) return errors;
          return {
            schema,
            document,
            variableValues: payload.variables,
            operationName: payload.operationName,
            // The plugins' context hooks run here (the rate-limit budget among them).
            contextValue: await contextFactory(),
            rootValue: { execute, subscribe } as Enveloped,
          };
        } catch (error) {
          if (isGraphQLError(error)) return [error];
          return [formatGraphQLError(error as Error, log)];
        }
      },
      onNext: (_ctx, _id, _payload, _args, sent) => {
        if (!sent.errors) return undefined;
        const result = withRequestErrorCodes(sent) ?? sent;
        return { ...result, errors: format(result.errors!) };
      },
      onError: (_ctx, _id, _payload, errors) => format(errors),
    },
    wss,
  );
  logSocketErrors(wss, log);
  return {
    async close(): Promise<void> {
      server.off('upgrade', onUpgrade);
      for (const client of wss.clients) client.close(1001, 'Going away');
      await handle.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** The path of a request target, as ws compares it with its `path` option. */
function pathOf(url: string | undefined): string {
  const target = url ?? '';
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

/**
 * An upgrade refused with `error`'s status, as a plain HTTP response in the contract's error shape
 * (no GraphQL operation has started), then the connection is closed.
 */
function upgradeRefusal(error: AppError): string {
  const body = JSON.stringify(errorBody(error));
  return (
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`
  );
}

/**
 * A socket's errors go to the service's log, not graphql-ws's console message. Those a client
 * causes (ws's `WS_ERR_…` codes, after ws closed the socket with 1009, 1007 or 1002) are one info
 * line; anything else is an error and closes the socket with 1011. Registered after useServer's
 * listener, which it replaces.
 */
function logSocketErrors(wss: WebSocketServer, log: Logger): void {
  wss.on('connection', (socket) => {
    socket.removeAllListeners('error');
    socket.on('error', (err: Error & { code?: unknown }) => {
      if (typeof err.code === 'string' && err.code.startsWith('WS_ERR_')) {
        log.info({ code: err.code, reason: err.message }, 'websocket closed: the client broke the protocol');
        return;
      }
      log.error({ err }, 'websocket error');
      socket.close(CloseCode.InternalServerError, 'Internal server error');
    });
  });
}

/**
 * A message that names a key twice in one object is refused as the HTTP bodies are
 * (src/http/body.ts): JSON.parse keeps the last, a proxy or a log may read the first. Such a
 * socket is closed with graphql-ws's 4400, and the message runs nothing: this listener is
 * registered before useServer's (an emitter calls its listeners in order), so the socket is in the
 * returned set before graphql-ws reads the message, and onConnect and onSubscribe refuse it.
 */
function refuseDuplicateKeys(wss: WebSocketServer): WeakSet<WebSocket> {
  const refused = new WeakSet<WebSocket>();
  wss.on('connection', (socket) => {
    socket.on('message', (data) => {
      // As graphql-ws reads it. Not JSON: graphql-ws closes it with 4400 itself.
      const text = String(data);
      try {
        JSON.parse(text);
      } catch {
        return;
      }
      const duplicate = duplicateKey(text);
      if (duplicate === undefined) return;
      refused.add(socket);
      const reason = `Invalid message received: it names the key ${JSON.stringify(duplicate)} twice in one object`;
      // A close reason holds at most 123 bytes.
      socket.close(CloseCode.BadRequest, Buffer.byteLength(reason) <= 123 ? reason : 'Invalid message received: it names a key twice in one object');
    });
  });
  return refused;
}
