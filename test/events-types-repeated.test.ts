// The event list's `types` naming the same names over and over. Query.events takes `types` as a
// list variable, bounded only by the body limit (1 MiB): one name 40,000 times became 40,000
// bound parameters of one statement, past PostgreSQL's limit of 65,535 with the query's others,
// and any signed-in caller got a masked INTERNAL_SERVER_ERROR where the list of that one name
// was asked for. Names given twice (`types=a,a`) are one name, as REST already answered.
import { describe, expect } from 'vitest';
import { serverTestOn } from './support/fixtures.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { DATABASES } from './support/server.js';
import { waitFor } from './support/wait.js';

const EVENTS = `query($types: [String!], $first: Int) { events(types: $types, first: $first) { edges { node { id event } } pageInfo { hasNextPage } } }`;

const tests = serverTestOn({ env: NO_RATE_LIMITS });

describe.each(DATABASES)('Query.events with a name repeated in types (%s)', (kind) => {
  const it = tests[kind];

  it('answers the page of that name, as for the name given once', async ({ api }) => {
    const grace = (await api.loginAs('grace')).token;
    expect((await api.patch('/api/v1/user/me', { name: 'Grace B. Hopper' }, { token: grace })).status).toBe(200);
    const once = await waitFor('the user.updated event listed', async () => {
      const reply = await api.graphql(EVENTS, { types: ['user.updated'], first: 5 }, { token: grace });
      return reply.body.data?.events.edges.length ? reply.body : undefined;
    });
    const repeated = await api.graphql(EVENTS, { types: Array<string>(40_000).fill('user.updated'), first: 5 }, { token: grace });
    expect(repeated.status, repeated.text).toBe(200);
    expect(repeated.body, repeated.text).toEqual(once);
    const rest = await api.get('/api/v1/events?types=user.updated,user.updated&limit=5', { token: grace });
    expect(rest.body.items.map((e: { id: string }) => e.id)).toEqual(once.data.events.edges.map((e: { node: { id: string } }) => e.node.id));
  });
});
