// The baseline the service is measured against: a bare node:http server doing the same public
// user lookup with plain `pg` (a Pool over the same database) and no framework, validation,
// logging or ORM (and GET /healthz, the same without the database). Started by bench/run.ts in
// its own process; prints one JSON line with its URL.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSchema, createYoga } from 'graphql-yoga';
import pg from 'pg';

// "timestamp without time zone" columns hold UTC (Prisma writes them so): parse them as UTC.
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (value) => new Date(`${value.replace(' ', 'T')}Z`));

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

/**
 * With YOGA_FLOOR=1 (the bench's diagnostics), a bare graphql-yoga under /yoga: no plugin of ours,
 * a one-field schema. What Yoga itself costs per request on this machine, beside the raw server.
 */
const yoga =
  process.env.YOGA_FLOOR === '1'
    ? createYoga({
        graphqlEndpoint: '/yoga/graphql',
        logging: false,
        // As the service has it: its own limit would stream a body already read again.
        maxRequestBodySize: false,
        schema: createSchema({ typeDefs: 'type Query { hello: String! }', resolvers: { Query: { hello: () => 'world' } } }),
        plugins: [
          {
            onRequest({ url, endResponse, fetchAPI }) {
              if (url.pathname === '/yoga/healthz') endResponse(fetchAPI.Response.json({ status: 'ok' }));
            },
          },
        ],
      })
    : undefined;

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
  pool
    .query<{ id: string; name: string; createdAt: Date }>('SELECT id, name, "createdAt" FROM "User" WHERE id = $1', [decodeURIComponent(m[1]!)])
    .then(({ rows: [user] }) => {
      if (!user) return send(res, 404, { error: 'not found' });
      send(res, 200, { id: user.id, name: user.name, joined: user.createdAt.toISOString().slice(0, 10) });
    })
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
