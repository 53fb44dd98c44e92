// Rate limits across instances: two real server processes on one PostgreSQL database and one
// Redis. Many concurrent requests spread over both must be let through exactly up to the limit:
// the counters live in Redis and each hit is one atomic script, so no instance over-admits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from './support/http.js';
import { processPool, TEST_REDIS_URL, type Instance } from './support/process.js';

const SLOW = { timeout: 240_000 };
const pool = processPool();
afterAll(() => pool.cleanup(), 60_000);

function statuses(replies: Reply[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of replies) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}

describe('two instances sharing REDIS_URL', () => {
  let a: Instance;
  let b: Instance;
  const at = (i: number) => (i % 2 ? b : a);

  beforeAll(async () => {
    ({ a, b } = await pool.cluster({
      REDIS_URL: TEST_REDIS_URL,
      TRUST_PROXY: 'true',
      RATE_LIMIT_FREE: '50',
      RATE_LIMIT_LOGIN: '5/1m',
    }));
  }, 200_000);

  it('lets exactly the limit through when 200 concurrent requests of one address hit both instances', SLOW, async () => {
    const headers = { 'x-forwarded-for': '203.0.113.10' };
    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => at(i).api.get('/api/content/docs', { headers })));
    expect(statuses(replies)).toEqual({ 200: 50, 429: 150 });
    for (const r of replies.filter((r) => r.status === 429)) {
      expect(r.body).toEqual({ error: true, code: 429, message: 'Rate limit exceeded' });
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // Every allowed response saw a different count: remaining 49 … 0, each once.
    const remaining = replies.filter((r) => r.status === 200).map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    expect(remaining.sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    // Another address still has its whole budget, on either instance.
    const other = await b.api.get('/api/content/docs', { headers: { 'x-forwarded-for': '203.0.113.11' } });
    expect(other.headers.get('x-ratelimit-remaining')).toBe('49');
  });

  it('shares a user\'s budget between instances and between the token and the user\'s API keys', SLOW, async () => {
    const headers = { 'x-forwarded-for': '203.0.113.20' };
    const { token } = await a.api.login('grace@example.com', 'hopper-1906');
    const created = await a.api.post('/api/v1/api-keys', { name: 'cluster' }, { token, headers });
    expect(created.status).toBe(201);
    const viaA = await a.api.get('/api/v1/user/me', { token, headers });
    const viaB = await b.api.get('/api/v1/user/me', { headers: { ...headers, 'x-api-key': created.body.key } });
    expect([viaA.status, viaB.status]).toEqual([200, 200]);
    // The key creation was the user's first counted request, then one on A, then the key on B.
    expect(created.headers.get('x-ratelimit-remaining')).toBe('49');
    expect(viaA.headers.get('x-ratelimit-remaining')).toBe('48');
    expect(viaB.headers.get('x-ratelimit-remaining')).toBe('47');
  });

  it('gives back the budget of logins refused by the operation limit, whichever instance counted or refused them', SLOW, async () => {
    const headers = { 'x-forwarded-for': '203.0.113.40' };
    const body = { email: `nobody-${Date.now()}@example.com`, password: 'not-a-password' };
    const login = (i: number) =>
      i % 2
        ? at(i).api.graphql('mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', { e: body.email, p: body.password }, { headers })
        : at(i).api.post('/api/auth/login', body, { headers });
    const counted = [];
    for (let i = 0; i < 5; i++) counted.push(await login(i));
    expect(counted.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['49', '48', '47', '46', '45']);
    const refused = [];
    for (let i = 0; i < 4; i++) refused.push(await login(i));
    expect(refused.map((r) => r.status)).toEqual([429, 429, 429, 429]);
    expect(refused.map((r) => r.headers.get('ratelimit'))).toEqual(Array(4).fill(expect.stringMatching(/^"free";r=45;t=\d+$/)));
    // As if the refused logins had not been sent, on either instance.
    expect((await b.api.get('/api/content/docs', { headers })).headers.get('x-ratelimit-remaining')).toBe('44');
    expect((await a.api.get('/api/content/docs', { headers })).headers.get('x-ratelimit-remaining')).toBe('43');
  });

  it('limits login per address exactly across instances (REST and GraphQL alike)', SLOW, async () => {
    const headers = { 'x-forwarded-for': '203.0.113.30' };
    const body = { email: 'grace@example.com', password: 'not-her-password' };
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 4 === 3
          ? at(i).api.graphql('mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', { e: body.email, p: body.password }, { headers })
          : at(i).api.post('/api/auth/login', body, { headers }),
      ),
    );
    const refused = replies.filter((r) => r.status === 429);
    expect(replies.length - refused.length).toBe(5);
    for (const r of refused) {
      expect(r.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      const message = r.body.errors?.[0]?.message ?? r.body.message;
      expect(message).toBe('Rate limit exceeded');
    }
  });
});
