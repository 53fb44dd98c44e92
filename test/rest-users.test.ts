// The user routes over real HTTP, on both databases: GET/PATCH /api/v1/user/me and the public
// GET /api/users/{id}. Events are checked in the database itself (postgres: through `pg`).
import { describe, expect } from 'vitest';
import { serverTestOn } from './support/fixtures.js';
import { DATABASES, sql } from './support/server.js';
import { expectError } from './support/assert.js';
import { NO_RATE_LIMITS } from './support/limits.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function expectDate(joined: unknown): void {
  expect(joined).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(new Date(`${joined as string}T00:00:00Z`).toISOString().slice(0, 10)).toBe(joined);
}

interface EventRow {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  createdAt: Date;
}

const tests = serverTestOn({ env: NO_RATE_LIMITS });

describe.each(DATABASES)('user routes on %s', (kind) => {
  const it = tests[kind];

  describe('GET /api/v1/user/me', () => {
    it('answers the current user of the token, with exactly the /me fields', async ({ api, ada, grace, alan }) => {
      const expected = {
        ada: { name: 'Ada Lovelace', email: 'ada@example.com', role: 'ADMIN', tier: 'PRO' },
        grace: { name: 'Grace Hopper', email: 'grace@example.com', role: 'MEMBER', tier: 'FREE' },
        alan: { name: 'Alan Turing', email: 'alan@example.com', role: 'MEMBER', tier: 'ENTERPRISE' },
      };
      const ids = new Set<string>();
      for (const who of ['ada', 'grace', 'alan'] as const) {
        const me = await api.get('/api/v1/user/me', { token: { ada, grace, alan }[who] });
        expect(me.status).toBe(200);
        expect(me.headers.get('content-type')).toMatch(/^application\/json/);
        expect(Object.keys(me.body as object).sort()).toEqual(['email', 'id', 'joined', 'name', 'role', 'tier']);
        expect(me.body).toEqual({ id: expect.any(String) as string, joined: expect.any(String) as string, ...expected[who] });
        expectDate(me.body.joined);
        ids.add(me.body.id as string);
      }
      expect(ids.size).toBe(3);
    });

    it('refuses a missing, malformed or forged token with 403 Missing or invalid token', async ({ api, ada }) => {
      const forged = `${ada.slice(0, -4)}${ada.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
      const variants: Record<string, string>[] = [
        {},
        { authorization: 'Bearer' },
        { authorization: 'Bearer not-a-jwt' },
        { authorization: `Bearer ${forged}` },
        { authorization: `Basic ${Buffer.from('ada@example.com:lovelace-1815').toString('base64')}` },
        { authorization: ada },
      ];
      for (const headers of variants) {
        expectError(await api.get('/api/v1/user/me', { headers }), 403, 'Missing or invalid token');
        expectError(await api.patch('/api/v1/user/me', { name: 'Nobody' }, { headers }), 403, 'Missing or invalid token');
      }
    });
  });

  describe('PATCH /api/v1/user/me', () => {
    it('renames the current user and answers the updated /me', async ({ api, alan }) => {
      const before = await api.get('/api/v1/user/me', { token: alan });
      const reply = await api.patch('/api/v1/user/me', { name: 'Alan M. Turing' }, { token: alan });
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ ...before.body, name: 'Alan M. Turing' });
      expect((await api.get('/api/v1/user/me', { token: alan })).body).toEqual(reply.body);
      expect((await api.get(`/api/users/${before.body.id as string}`)).body).toEqual({
        id: before.body.id, name: 'Alan M. Turing', joined: before.body.joined,
      });
    });

    it('trims the name and accepts exactly 100 characters', async ({ api, alan }) => {
      expect((await api.patch('/api/v1/user/me', { name: '  Alan  ' }, { token: alan })).body.name).toBe('Alan');
      const longest = 'n'.repeat(100);
      const reply = await api.patch('/api/v1/user/me', { name: longest }, { token: alan });
      expect(reply.status).toBe(200);
      expect(reply.body.name).toBe(longest);
    });

    it('refuses an invalid body with 400 naming the field, and changes nothing', async ({ api, grace }) => {
      const before = (await api.get('/api/v1/user/me', { token: grace })).body as Record<string, unknown>;
      const cases: [unknown, string, RegExp][] = [
        [{ name: '' }, 'name', /^name: must not be empty$/],
        [{ name: '   ' }, 'name', /^name: must not be empty$/],
        [{ name: 'x'.repeat(101) }, 'name', /^name: must be at most 100 characters$/],
        [{}, 'name', /^name: is required$/],
        [{ name: 42 }, 'name', /^name: .*string/],
        [{ name: null }, 'name', /^name: /],
        [{ name: ['Grace'] }, 'name', /^name: /],
        [{ name: 'Grace', email: 'evil@example.com' }, 'email', /^email: unknown field$/],
        [{ name: 'Grace', role: 'ADMIN' }, 'role', /^role: unknown field$/],
        [{ role: 'ADMIN' }, 'name', /^name: is required$/],
      ];
      for (const [body, field, message] of cases) {
        const reply = await api.patch('/api/v1/user/me', body, { token: grace });
        expectError(reply, 400, message, field);
      }
      expect((await api.get('/api/v1/user/me', { token: grace })).body).toEqual(before);
    });
  });

  describe('GET /api/users/{id}', () => {
    it('answers exactly {id, name, joined}, with or without a token', async ({ api, ada, grace }) => {
      const me = (await api.get('/api/v1/user/me', { token: grace })).body as Record<string, string>;
      for (const token of [undefined, grace, ada, 'not-a-token']) {
        const reply = await api.get(`/api/users/${me.id!}`, { token });
        expect(reply.status).toBe(200);
        expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
        expect(Object.keys(reply.body as object).sort()).toEqual(['id', 'joined', 'name']);
        expect(reply.body).toEqual({ id: me.id, name: me.name, joined: me.joined });
        expect(reply.text).not.toContain('@example.com');
        expect(reply.text).not.toMatch(/role|tier|password|MEMBER/i);
      }
    });

    it('answers 404 for an unknown user, with or without a token', async ({ api, ada }) => {
      for (const id of ['usr_nobody', 'nope', encodeURIComponent('a b/c'), 'x'.repeat(300)]) {
        expectError(await api.get(`/api/users/${id}`), 404, /not found/);
        expectError(await api.get(`/api/users/${id}`, { token: ada }), 404, /not found/);
      }
      expectError(await api.get('/api/users/usr_nobody'), 404, 'User usr_nobody not found');
    });
  });

  // The outbox lives in the database; an embedded PGlite is only reachable from inside the server.
  if (kind === 'postgres') {
    describe('events', () => {
      it('PATCH /api/v1/user/me emits one user.updated {event, timestamp, userId}; a refused one emits nothing', async ({ server, api, ada }) => {
        const me = (await api.get('/api/v1/user/me', { token: ada })).body as Record<string, string>;
        const count = async () =>
          (await sql<EventRow>(server, `SELECT * FROM "Event" WHERE type = 'user.updated' AND payload->>'userId' = $1`, [me.id])).length;
        expect(await count()).toBe(0);

        expectError(await api.patch('/api/v1/user/me', { name: '' }, { token: ada }), 400);
        expect(await count()).toBe(0);

        expect((await api.patch('/api/v1/user/me', { name: 'Augusta Ada King' }, { token: ada })).status).toBe(200);
        const rows = await sql<EventRow>(server, `SELECT * FROM "Event" WHERE type = 'user.updated' AND payload->>'userId' = $1`, [me.id]);
        expect(rows).toHaveLength(1);
        const [row] = rows;
        expect(row!.id).toMatch(/^evt_/);
        expect(row!.payload).toEqual({ event: 'user.updated', timestamp: expect.stringMatching(ISO_MS) as string, userId: me.id });
        expect(new Date(row!.payload.timestamp as string).getTime()).toBe(row!.createdAt.getTime());
      });

      it('answers `joined` as the UTC date of the account creation', async ({ server, api, grace }) => {
        const me = (await api.get('/api/v1/user/me', { token: grace })).body as Record<string, string>;
        const [row] = await sql<{ createdAt: Date }>(server, `SELECT "createdAt" FROM "User" WHERE id = $1`, [me.id]);
        expect(me.joined).toBe(row!.createdAt.toISOString().slice(0, 10));
      });
    });
  }
});
