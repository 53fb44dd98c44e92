// The baseline the service is measured against: a bare node:http server doing the same public
// user lookup with plain `pg` (a Pool over the same database) and no framework, validation,
// logging or ORM (and GET /healthz, the same without the database). Started by bench/run.ts in
// its own process; prints one JSON line with its URL.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { bareYoga, plainLookups } from './lib/bare-lookups.js';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');
const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(process.env.POOL_SIZE ?? 20) });
pool.on('error', () => {});

const USER_PATH = /^\/users\/([^/?]+)$/;

function send(res: import('node:http').ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

const lookups = plainLookups(pool);
const { publicUser } = lookups;

/**
 * With YOGA_FLOOR=1 (the bench's diagnostics), a bare graphql-yoga under /yoga (bench/lib/bare-lookups.ts):
 * what Yoga itself costs per request on this machine, beside the raw server, doing the same lookups.
 */
const yoga = process.env.YOGA_FLOOR === '1' ? bareYoga('/yoga', lookups) : undefined;

const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
  if (req.url === '/healthz') return send(res, 200, { status: 'ok' });
  if (yoga && req.url?.startsWith('/yoga/')) {
    if (req.headers['x-read-body'] !== '1') return void yoga(req, res);
    // The service's way: the body read first, handed over as a string (whatwg-node's fast path).
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      // x-parse-body: handed over parsed (whatwg-node answers request.json() with it directly).
      Object.assign(req, { body: req.headers['x-parse-body'] === '1' ? JSON.parse(text) : text });
      void yoga(req, res);
    });
    return;
  }
  const m = req.method === 'GET' ? USER_PATH.exec(req.url ?? '') : null;
  if (!m) return send(res, 404, { error: 'not found' });
  publicUser(decodeURIComponent(m[1]!))
    .then((user) => (user ? send(res, 200, user) : send(res, 404, { error: 'not found' })))
    .catch(() => send(res, 500, { error: 'internal' }));
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ msg: 'listening', url: `http://127.0.0.1:${port}` })}\n`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    void pool.end().finally(() => process.exit(0));
  });
}
