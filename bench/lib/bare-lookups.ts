// The baseline's work without the service: the public user lookup and the `/me` lookup with plain
// `pg`, and a bare graphql-yoga answering them (no plugin of ours, a two-field schema). Used by the
// baseline server (bench/baseline-server.ts) and by bench/in-process.ts, so both measure the same.
import { createSchema, createYoga } from 'graphql-yoga';
import { decodeJwt } from 'jose';
import pg from 'pg';

// "timestamp without time zone" columns hold UTC (Prisma writes them so): parse them as UTC.
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (value) => new Date(`${value.replace(' ', 'T')}Z`));

export interface PlainLookups {
  /** The public view of one user, or undefined. */
  publicUser: (id: string) => Promise<{ id: string; name: string; joined: string } | undefined>;
  /**
   * The caller's own account as the service's GET /api/v1/user/me reads it: the session and its
   * account in one query. The token's claims are decoded, not verified (the service verifies each
   * token once and remembers it), so this is a lower bound of the service's work.
   */
  me: (authorization: string | null) => Promise<object | undefined>;
}

export function plainLookups(pool: pg.Pool): PlainLookups {
  return {
    publicUser: async (id) => {
      const { rows: [user] } = await pool.query<{ id: string; name: string; createdAt: Date }>('SELECT id, name, "createdAt" FROM "User" WHERE id = $1', [id]);
      return user && { id: user.id, name: user.name, joined: user.createdAt.toISOString().slice(0, 10) };
    },
    me: async (authorization) => {
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
    },
  };
}

/**
 * A bare graphql-yoga under `prefix`: `${prefix}/healthz`, `${prefix}/users/:id` and `${prefix}/me`
 * answered from an onRequest hook (where the service's REST routes live), and
 * `${prefix}/graphql` with `user(id)` answered by a resolver (the service's GraphQL `user(id)`).
 */
export function bareYoga(prefix: string, { publicUser, me }: PlainLookups) {
  const userPath = new RegExp(`^${prefix}/users/([^/?]+)$`);
  return createYoga({
    graphqlEndpoint: `${prefix}/graphql`,
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
          if (url.pathname === `${prefix}/healthz`) return endResponse(fetchAPI.Response.json({ status: 'ok' }));
          const isMe = url.pathname === `${prefix}/me`;
          const m = isMe ? null : userPath.exec(url.pathname);
          if (!m && !isMe) return;
          return (m ? publicUser(decodeURIComponent(m[1]!)) : me(request.headers.get('authorization'))).then((found) =>
            endResponse(
              found
                ? new fetchAPI.Response(JSON.stringify(found), { headers: { 'content-type': 'application/json; charset=utf-8' } })
                : fetchAPI.Response.json({ error: 'not found' }, { status: 404 }),
            ),
          );
        },
      },
    ],
  });
}
