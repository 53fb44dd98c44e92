// What the bench measures. Add a scenario here; run.ts loads each in order, after a warm-up.
import type { RequestSpec } from './lib/load.js';

/** What the scenarios may use, learnt once the service runs (seeded demo data). */
export interface BenchContext {
  /** ada@example.com's user id. */
  userId: string;
  /** An access token of ada@example.com. */
  token: string;
}

export interface Scenario {
  name: string;
  /** Which process the load goes to. */
  target: 'baseline' | 'service';
  /** The reference the others' req/s are divided by (exactly one scenario). */
  isBaseline?: boolean;
  /** Goal: req/s at least this fraction of the baseline's. */
  minRatio?: number;
  /** Only with BENCH_DIAGNOSTICS=1: isolates one layer to see where time goes (no goal). */
  diagnostic?: boolean;
  /**
   * A diagnostic that is the floor of the scenario with this name: the same work through bare
   * Yoga. It runs in the rounds right after that scenario, and its median is printed beside it.
   */
  floorOf?: string;
  request(ctx: BenchContext): RequestSpec;
}

const json = { 'content-type': 'application/json' };
const USER_QUERY = 'query($id: ID!){ user(id: $id) { id name joined } }';

export const scenarios: Scenario[] = [
  {
    name: 'baseline: node:http + pg, GET /users/:id',
    target: 'baseline',
    isBaseline: true,
    request: ({ userId }) => ({ method: 'GET', path: `/users/${encodeURIComponent(userId)}` }),
  },
  {
    name: 'REST GET /api/users/{id}',
    target: 'service',
    minRatio: 0.8,
    request: ({ userId }) => ({ method: 'GET', path: `/api/users/${encodeURIComponent(userId)}` }),
  },
  {
    name: 'REST GET /api/v1/user/me (bearer)',
    target: 'service',
    minRatio: 0.65,
    request: ({ token }) => ({ method: 'GET', path: '/api/v1/user/me', headers: { authorization: `Bearer ${token}` } }),
  },
  {
    name: 'GraphQL POST user(id)',
    target: 'service',
    minRatio: 0.7,
    request: ({ userId }) => ({
      method: 'POST',
      path: '/graphql',
      headers: json,
      body: JSON.stringify({ query: USER_QUERY, variables: { id: userId } }),
    }),
  },
  {
    // GET queries are served from the response cache once a first request has stored the result.
    name: 'GraphQL GET user(id) (response cache)',
    target: 'service',
    minRatio: 1.2,
    request: ({ userId }) => ({
      method: 'GET',
      path: `/graphql?query=${encodeURIComponent(USER_QUERY)}&variables=${encodeURIComponent(JSON.stringify({ id: userId }))}`,
    }),
  },

  // Diagnostics: the same layers without the database.
  {
    name: 'diag: baseline GET /healthz (no db)',
    target: 'baseline',
    diagnostic: true,
    request: () => ({ method: 'GET', path: '/healthz' }),
  },
  {
    name: 'diag: service GET /healthz (no db)',
    target: 'service',
    diagnostic: true,
    request: () => ({ method: 'GET', path: '/healthz' }),
  },
  {
    name: 'diag: GraphQL POST { __typename } (no db)',
    target: 'service',
    diagnostic: true,
    request: () => ({ method: 'POST', path: '/graphql', headers: json, body: JSON.stringify({ query: '{ __typename }' }) }),
  },
  {
    name: 'diag: GraphQL GET { __typename } (no db)',
    target: 'service',
    diagnostic: true,
    request: () => ({ method: 'GET', path: `/graphql?query=${encodeURIComponent('{ __typename }')}` }),
  },
  // Yoga's floor: a bare createYoga (no plugin of ours, one-field schema) inside the baseline process.
  {
    name: 'diag: bare Yoga GET /healthz (onRequest)',
    target: 'baseline',
    diagnostic: true,
    request: () => ({ method: 'GET', path: '/yoga/healthz' }),
  },
  {
    name: 'diag: bare Yoga GET { hello }',
    target: 'baseline',
    diagnostic: true,
    request: () => ({ method: 'GET', path: `/yoga/graphql?query=${encodeURIComponent('{ hello }')}` }),
  },
  // The targets' floor: the baseline's own lookup through bare Yoga, with nothing of ours.
  {
    name: 'diag: bare Yoga GET /users/:id (onRequest + pg)',
    target: 'baseline',
    diagnostic: true,
    floorOf: 'REST GET /api/users/{id}',
    request: ({ userId }) => ({ method: 'GET', path: `/yoga/users/${encodeURIComponent(userId)}` }),
  },
  {
    name: 'diag: bare Yoga GET /me (onRequest + the session query)',
    target: 'baseline',
    diagnostic: true,
    floorOf: 'REST GET /api/v1/user/me (bearer)',
    request: ({ token }) => ({ method: 'GET', path: '/yoga/me', headers: { authorization: `Bearer ${token}` } }),
  },
  {
    name: 'diag: bare Yoga POST user(id) (resolver + pg, body read first)',
    target: 'baseline',
    diagnostic: true,
    floorOf: 'GraphQL POST user(id)',
    request: ({ userId }) => ({
      method: 'POST',
      path: '/yoga/graphql',
      headers: { ...json, 'x-read-body': '1' },
      body: JSON.stringify({ query: USER_QUERY, variables: { id: userId } }),
    }),
  },
  {
    name: 'diag: bare Yoga POST { hello } (body streamed)',
    target: 'baseline',
    diagnostic: true,
    request: () => ({ method: 'POST', path: '/yoga/graphql', headers: json, body: JSON.stringify({ query: '{ hello }' }) }),
  },
  {
    name: 'diag: bare Yoga POST { hello } (body read first)',
    target: 'baseline',
    diagnostic: true,
    request: () => ({ method: 'POST', path: '/yoga/graphql', headers: { ...json, 'x-read-body': '1' }, body: JSON.stringify({ query: '{ hello }' }) }),
  },
  {
    name: 'diag: bare Yoga POST { hello } (body parsed first)',
    target: 'baseline',
    diagnostic: true,
    request: () => ({ method: 'POST', path: '/yoga/graphql', headers: { ...json, 'x-read-body': '1', 'x-parse-body': '1' }, body: JSON.stringify({ query: '{ hello }' }) }),
  },
];
