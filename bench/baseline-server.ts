// The baseline the service is measured against: a bare node:http server doing the same public
// user lookup with plain `pg` (a Pool over the same database) and no framework, validation,
// logging or ORM (and GET /healthz, the same without the database). Started by bench/run.ts in
// its own process; prints one JSON line with its URL.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSchema, createYoga } from 'graphql-yoga';
import { decodeJwt } from 'jose';
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

/** The baseline's lookup: the public view of one user, or undefined. */
async function publicUser(id: string): Promise<{ id: string; name: string; joined: string } | undefined> {
  const { rows: [user] } = await pool.query<{ id: string; name: string; createdAt: Date }>('SELECT id, name, "createdAt" FROM "User" WHERE id = $1', [id]);
  return user && { id: user.id, name: user.name, joined: user.createdAt.toISOString().slice(0, 10) };
}

const YOGA_USER_PATH = /^\/yoga\/users\/([^/?]+)$/;

/**
 * The caller's own account as the service's GET /api/v1/user/me reads it: the session and its
 * account in one query. The token's claims are decoded, not verified (the service verifies each
 * token once and remembers it), so this is a lower bound of the service's work.
 */
async function me(authorization: string | null): Promise<object | undefined> {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (!token) return undefined;
  const { sub, sid } = decodeJwt(token);
  const { rows: [row] } = await pool.query<{ id: string; name: string; email: string; role: string; tier: string; createdAt: Date; revokedAt: Date | null }>(
    `SELECT u.id, u.name, u.email, u.role, u.tier, u."createdAt", s."revokedAt"
       FROM "Session" s JOIN "User" u ON u.id = s."userId"
      WHERE s.id = $1 AND s."userId" = $2`,
    [sid, sub],
  );
  if (!row || row.revokedAt) return undefined;
  return { id: row.id, name: row.name, email: row.email, joined: row.createdAt.toISOString().slice(0, 10), role: row.role, tier: row.tier };
}

/**
 * With YOGA_FLOOR=1 (the bench's diagnostics), a bare graphql-yoga under /yoga: no plugin of ours,
 * a two-field schema. What Yoga itself costs per request on this machine, beside the raw server:
 * the same lookup as the baseline answered from an onRequest hook (where the service's REST
 * routes live) and by a resolver (the service's GraphQL `user(id)`).
 */
const yoga =
  process.env.YOGA_FLOOR === '1'
    ? createYoga({
        graphqlEndpoint: '/yoga/graphql',
        logging: false,
        // As the service has it: its own limit would stream a body already read again.
        maxRequestBodySize: false,
        schema: createSchema({
          typeDefs: 'type Query { hello: String! user(id: ID!): User } type User { id: ID! name: String! joined: String! }',
          resolvers: { Query: { hello: () => 'world', user: (_: unknown, { id }: { id: string }) => publicUser(id) } },
        }),
        plugins: [
          {
            onRequest({ request, url, endResponse, fetchAPI }) {
              if (url.pathname === '/yoga/healthz') return endResponse(fetchAPI.Response.json({ status: 'ok' }));
              const m = url.pathname === '/yoga/me' ? null : YOGA_USER_PATH.exec(url.pathname);
              if (!m && url.pathname !== '/yoga/me') return;
              return (m ? publicUser(decodeURIComponent(m[1]!)) : me(request.headers.get('authorization'))).then((user) =>
                endResponse(
                  user
                    ? new fetchAPI.Response(JSON.stringify(user), { headers: { 'content-type': 'application/json; charset=utf-8' } })
                    : fetchAPI.Response.json({ error: 'not found' }, { status: 404 }),
                ),
              );
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
