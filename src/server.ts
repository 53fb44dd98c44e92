// Starts the service: validated config, migrated (and, outside production, seeded) database,
// then listen. Returns a handle the tests and main.ts use alike.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isUtf8 } from 'node:buffer';
import type { AddressInfo } from 'node:net';
import type { Plugin } from 'graphql-yoga';
import { createApp } from './app.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { prepareDatabase, type PrepareOptions, type PreparedDatabase } from './db/prepare.js';
import { createLogger, type Logger } from './logger.js';
import { createMetrics, type Metrics } from './metrics.js';
import { createResponseCache, invalidateOnEvents, responseCachePrefix } from './modules/response-cache/index.js';
import { attachGraphQLWebSocket } from './graphql/ws.js';
import { readNodeBody } from './http/body.js';
import { checkAddress, listen, urlHost } from './http/address.js';
import { answerClientError } from './http/client-error.js';
import { DESCRIPTOR_HEADROOM, limitSockets, openFileLimit } from './http/connection-limits.js';
import { clientAddress } from './http/plugins/use-request-context.js';
import type { EventBus } from './modules/events/bus.js';
import { createEventBus, eventChannel } from './modules/events/bus/create-event-bus.js';
import { newestPosition, storedEvents } from './modules/events/stored.js';
import { createRateLimitStore, rateLimitPrefix } from './modules/limits/index.js';
import { createWorkers } from './workers.js';

/** How long in-flight requests get to finish when the server stops. */
const STOP_GRACE_MS = 5_000;

export interface RunningServer {
  url: string;
  port: number;
  log: Logger;
  stop(): Promise<void>;
}

export interface StartOptions extends PrepareOptions {
  log?: Logger;
  /** Yoga plugins added after the service's own (a test proves one applies to every transport). */
  plugins?: Plugin[];
  /**
   * How long a WebSocket may wait before its connection_init, in ms (default
   * WEBSOCKET_INIT_TIMEOUT_MS, the contract's 10 s). Not configuration: tests shorten it.
   */
  webSocketInitTimeoutMs?: number;
  /** The database's preparation, when the caller began it already (main.ts; see prepare.ts). */
  preparation?: Promise<PreparedDatabase>;
}

/**
 * The service without its HTTP server: the database (migrated, and seeded outside production),
 * the event bus, the limiter, the response cache and the Yoga server over them. startServer serves
 * it; bench/in-process.ts measures it in one process, through `yoga.fetch`.
 */
export interface Service {
  log: Logger;
  db: Database;
  bus: EventBus;
  metrics: Metrics;
  yoga: App['yoga'];
  webSocketContext: App['webSocketContext'];
  /** WebSocket and SSE connections open per client address. */
  connections: App['connections'];
  /** Wake the event relay and the webhook worker: set by whoever runs the workers. */
  wakers: { relay?: () => void; dispatcher?: (endpointId: string) => void };
  /** Disposes the Yoga server, stops following events, then closes the response cache, the bus, the limiter and the database. */
  close(): Promise<void>;
}

type App = ReturnType<typeof createApp>;

export async function buildService(config: Config, options: StartOptions = {}): Promise<Service> {
  const log = options.log ?? createLogger(config.logLevel);
  const { db, dataDirLock, applied, seeded } = await (options.preparation ?? prepareDatabase(config, options));
  if (applied.length) log.info({ applied }, 'migrations applied');
  if (seeded) log.info('seeded demo data');
  // Instances of one deployment (one database) share the event channel and the rate-limit counters.
  const databaseIdentity = config.databaseUrl ?? config.dataDir;
  const bus = createEventBus({
    redisUrl: config.redisUrl,
    channel: eventChannel(databaseIdentity),
    log,
    buffer: config.subscriptionBuffer,
    stored: { newest: () => newestPosition(db.prisma), between: (from, to) => storedEvents(db.prisma, from, to) },
  });
  const limits = createRateLimitStore({ redisUrl: config.redisUrl, prefix: rateLimitPrefix(databaseIdentity) });
  // One registry per server: tests run many in one process.
  const metrics = createMetrics();
  const responseCache = createResponseCache({ redisUrl: config.redisUrl, prefix: responseCachePrefix(databaseIdentity), log });
  const stopInvalidating = invalidateOnEvents(bus, responseCache);
  const wakers: Service['wakers'] = {};
  // A change that recorded events has committed (over HTTP or a WebSocket): this instance's relay
  // positions and publishes them at once (see relay.ts). An ADMIN's test, retry or recovery: the
  // webhook worker sends it at once.
  const { yoga, webSocketContext, connections } = createApp({
    config, db, bus, limits, log, metrics, responseCache, plugins: options.plugins,
    onEventsCommitted: () => wakers.relay?.(),
    onDeliveriesDue: (endpointId) => wakers.dispatcher?.(endpointId),
  });
  return {
    log,
    db,
    bus,
    metrics,
    yoga,
    webSocketContext,
    connections,
    wakers,
    close: async () => {
      await yoga.dispose();
      await stopInvalidating();
      await responseCache.close();
      await bus.close();
      await limits.close();
      try {
        await db.close();
      } finally {
        await dataDirLock?.release();
      }
    },
  };
}

/**
 * MAX_CONNECTIONS bounds the sockets so that the process keeps descriptors for everything else;
 * a limit on open files (`ulimit -n`) below it plus that headroom would let a flood take them all
 * before the cap. Said once at start, with what to do.
 */
function warnOfDescriptorLimit(config: Config, log: Logger): void {
  const limit = openFileLimit();
  const needed = config.maxConnections + config.dbPoolSize + DESCRIPTOR_HEADROOM;
  if (limit === undefined || limit >= needed) return;
  log.warn(
    { maxConnections: config.maxConnections, openFileLimit: limit, needed },
    'MAX_CONNECTIONS leaves too few file descriptors: raise the open-file limit (ulimit -n, systemd LimitNOFILE, docker --ulimit nofile) or lower MAX_CONNECTIONS',
  );
}


export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  // A caller that began the preparation checked the address before it did (main.ts).
  if (!options.preparation) await checkAddress(config);
  const service = await buildService(config, options);
  const { log, db, bus, metrics, yoga, webSocketContext, connections, wakers } = service;

  // Every request goes to Yoga, its body read first and limited (see readNodeBody).
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.headers['content-length'] !== '0') {
      try {
        const body = await readNodeBody(req, config.bodyLimitBytes);
        if (body === null) Object.assign(req, { bodyTooLarge: true });
        // whatwg-node takes a string `body` as the request's body instead of reading the stream.
        // Bytes that are not UTF-8 would become U+FFFD in it: useInputEncoding refuses the request.
        else if (body.length) Object.assign(req, { body: body.toString('utf8'), bodyNotUtf8: !isUtf8(body) });
      } catch {
        // The client went away mid-body: nobody is left to answer.
        return;
      }
    }
    await yoga.requestListener(req, res);
  }
  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => void handle(req, res));
  server.on('clientError', answerClientError);
  limitSockets(server, config.maxConnections, metrics.connectionRefused);
  warnOfDescriptorLimit(config, log);
  try {
    await listen(server, config);
  } catch (error) {
    await service.close();
    throw error;
  }
  // Attached once the port is ours: attached before, a port in use reached graphql-ws's own
  // listener too, which printed "Internal error emitted on the WebSocket server" and a stack.
  const websocket = attachGraphQLWebSocket({
    server,
    yoga,
    log,
    contextFor: webSocketContext,
    messageLimit: config.bodyLimitBytes,
    connections,
    addressOf: (req) => clientAddress(null, { req }, config.trustProxy),
    initTimeoutMs: options.webSocketInitTimeoutMs,
    onRefused: metrics.connectionRefused,
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${urlHost(config.host)}:${port}`;
  const { all: workers, relay, dispatcher } = createWorkers({ db, bus, config, log, metrics });
  for (const worker of workers) worker.start();
  wakers.relay = () => relay.wake?.();
  wakers.dispatcher = (endpointId) => dispatcher.attemptNow(endpointId);
  log.info({ url, database: db.kind, redis: Boolean(config.redisUrl) }, 'listening');
  return {
    url,
    port,
    log,
    stop: async () => {
      // Connections still busy after the grace period (a stalled client, a stream) are cut,
      // so stopping always ends and the database is always closed cleanly.
      const cut = setTimeout(() => server.closeAllConnections(), STOP_GRACE_MS);
      const closed = async () => {
        await websocket.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
      };
      try {
        await Promise.all([closed(), ...workers.map((w) => w.stop())]);
      } finally {
        clearTimeout(cut);
      }
      await service.close();
    },
  };
}
