// The client when the server cannot be reached or the connection breaks: every call, and the
// event stream once it gives up reconnecting, rejects with the client's NetworkError carrying
// fetch's own error as its cause, never a bare TypeError. No Learnstream server is needed: a port
// nothing listens on, and raw sockets that reset or never answer.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LearningApiError, LearningClient, LearnstreamError, NetworkError, verifyWebhook, WebhookVerificationError } from '../src/client/index.js';
import { freePort } from './support/wait.js';

/** The rejection of a promise that must reject. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** A TCP server that does `onSocket` with every connection, closed after each test. */
const servers: { server: Server; sockets: Set<Socket> }[] = [];
async function rawServer(onSocket: (socket: Socket) => void): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ server, sockets });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const { server, sockets } of servers.splice(0)) {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Expects the client's NetworkError for `url`, with fetch's error as its cause. */
function expectNetworkError(error: unknown, url: string): NetworkError {
  expect(error).toBeInstanceOf(NetworkError);
  expect(error).toBeInstanceOf(LearnstreamError);
  expect(error).not.toBeInstanceOf(LearningApiError);
  const network = error as NetworkError;
  expect(network.name).toBe('NetworkError');
  expect(network.url).toBe(url);
  expect(network.message.startsWith(`Could not reach ${url}: `)).toBe(true);
  expect(network.cause).toBeInstanceOf(Error);
  return network;
}

describe('network failures are NetworkError', () => {
  it('a REST call to a closed port: connection refused, with the cause', async () => {
    const baseUrl = `http://127.0.0.1:${await freePort()}`;
    const error = expectNetworkError(await rejection(new LearningClient({ baseUrl, apiKey: 'lp_x' }).me()), `${baseUrl}/api/v1/user/me`);
    expect(error.code).toBe('ECONNREFUSED');
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect((error.cause as Error).message).toBe('fetch failed');
  });

  it('a GraphQL call and a write to a closed port', async () => {
    const baseUrl = `http://127.0.0.1:${await freePort()}`;
    const client = new LearningClient({ baseUrl });
    expect(expectNetworkError(await rejection(client.graphql.docs()), `${baseUrl}/graphql`).code).toBe('ECONNREFUSED');
    expect(expectNetworkError(await rejection(client.analytics.recordPageView('/x')), `${baseUrl}/api/analytics/views`).code).toBe('ECONNREFUSED');
  });

  it('a name that does not resolve', async () => {
    const baseUrl = 'http://learnstream.invalid';
    const error = expectNetworkError(await rejection(new LearningClient({ baseUrl }).docs.list()), `${baseUrl}/api/content/docs`);
    expect(error.code).toMatch(/^(ENOTFOUND|EAI_AGAIN)$/);
  });

  it('a connection reset before the whole response arrived', async () => {
    const baseUrl = await rawServer((socket) => {
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"items":');
        setTimeout(() => socket.resetAndDestroy(), 20);
      });
    });
    expectNetworkError(await rejection(new LearningClient({ baseUrl }).docs.list()), `${baseUrl}/api/content/docs`);
  });

  it('timeoutMs: a server that never answers fails after it, not never', async () => {
    const baseUrl = await rawServer(() => {});
    const started = Date.now();
    const error = expectNetworkError(await rejection(new LearningClient({ baseUrl, timeoutMs: 300 }).me()), `${baseUrl}/api/v1/user/me`);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error.message).toBe(`Could not reach ${baseUrl}/api/v1/user/me: no response within 300 ms`);
  });

  it("the caller's own abort still rejects with the signal's reason", async () => {
    const baseUrl = await rawServer(() => {});
    const reason = new Error('the caller gave up');
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 50);
    const client = new LearningClient({ baseUrl, timeoutMs: 10_000 });
    expect(await rejection(client.me({ signal: controller.signal }))).toBe(reason);
  });

  it('events() reconnects after a network failure, then gives up with NetworkError after maxReconnectAttempts', async () => {
    const baseUrl = `http://127.0.0.1:${await freePort()}`;
    const disconnects: { attempt: number }[] = [];
    const stream = new LearningClient({ baseUrl, apiKey: 'lp_x' }).events({
      maxReconnectAttempts: 2,
      reconnectDelayMs: 10,
      onDisconnected: ({ attempt }) => disconnects.push({ attempt }),
    });
    const error = expectNetworkError(await rejection(stream.next()), `${baseUrl}/graphql`);
    expect(error.code).toBe('ECONNREFUSED');
    expect(disconnects).toEqual([{ attempt: 1 }, { attempt: 2 }]);
  });

  it('events(): a connection reset on every attempt ends as NetworkError too', async () => {
    const baseUrl = await rawServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
    const stream = new LearningClient({ baseUrl }).events({ maxReconnectAttempts: 1, reconnectDelayMs: 10 });
    expectNetworkError(await rejection(stream.next()), `${baseUrl}/graphql`);
  });

  it('every error the client throws is a LearnstreamError', () => {
    let error: unknown;
    try {
      verifyWebhook('{}', new Headers(), 'whsec_x');
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error).toBeInstanceOf(LearnstreamError);
  });
});
