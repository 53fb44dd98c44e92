// Retention and the `after` of a client that filters by `types`. A poller of
// `GET /api/v1/events?types=lesson.published` (or a subscriber to those names) holds, once it has
// seen everything, the id of the last event of those names: the list's last item, the stream's last
// event. When none of those names has happened for EVENT_RETENTION_DAYS while other events kept
// coming, the housekeeping deleted that event, and the next poll, or the client library's
// reconnect after a dropped connection, got 400 / BAD_USER_INPUT "unknown or expired event id"
// although the client had missed nothing. The newest event of each name is kept, as the newest
// event of all already was; older events of the same name still expire.
import { describe, expect } from 'vitest';
import { serverTest } from './support/fixtures.js';
import { client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { sql } from './support/server.js';
import { waitFor } from './support/wait.js';

const SUBSCRIPTION = `subscription($types: [String!], $after: ID) { events(types: $types, after: $after) { id event } }`;

const it = serverTest({ kind: 'postgres', env: { ...NO_RATE_LIMITS, EVENT_RETENTION_DAYS: '1' } });

describe('retention keeps the after of a client filtering by types', () => {
  it('a poller of a rare name that has seen everything keeps polling after a week of other events', async ({ server: started, api: itsClient, ada }) => {
    // Restarted below: the fixture's clean-up stops the restarted server.
    let server = started;
    let api = itsClient;
    const lessons = await api.get('/api/v1/lessons?limit=1', { token: ada });
    const lessonId = lessons.body.items[0].id as string;
    const update = (title: string) => api.patch(`/api/v1/lessons?id=${lessonId}`, { title }, { token: ada });
    expect((await update('Retained, first')).status).toBe(200);
    expect((await update('Retained, last')).status).toBe(200);
    for (const path of ['/a', '/b', '/c']) expect((await api.post('/api/analytics/views', { path })).status).toBe(202);

    const listed = await waitFor('the lesson.updated events listed', async () => {
      const page = await api.get('/api/v1/events?types=lesson.updated', { token: ada });
      return page.body.items.length === 2 ? (page.body.items as { id: string }[]) : undefined;
    });
    const [first, last] = listed.map((e) => e.id) as [string, string];
    // The poller's cursor: the last item it saw (nextCursor is null on the last page).
    expect((await api.get(`/api/v1/events?types=lesson.updated&after=${last}`, { token: ada })).body).toEqual({ items: [], nextCursor: null });

    // Two days pass with page views only: every event so far is past retention but the newest.
    await sql(server, `UPDATE "Event" SET "createdAt" = "createdAt" - interval '2 days'`);
    for (const path of ['/d', '/e']) expect((await api.post('/api/analytics/views', { path })).status).toBe(202);
    await waitFor('the new page views listed', async () => {
      const page = await api.get(`/api/v1/events?after=${last}`, { token: ada });
      return page.body.items.filter((e: { event: string }) => e.event === 'analytics.hit').length >= 5 || undefined;
    });
    // The housekeeping runs as the relay starts.
    server = await server.restart();
    api = client(server.url);
    const token = (await api.loginAs('ada')).token;
    await waitFor('the events past retention deleted', async () => {
      const [row] = await sql<{ n: string }>(server, `SELECT count(*) AS n FROM "Event" WHERE id = $1`, [first]);
      return row!.n === '0' || undefined;
    });

    // Older events of the name did expire, as the contract says.
    const expired = await api.get(`/api/v1/events?types=lesson.updated&after=${first}`, { token });
    expect(expired.status, expired.text).toBe(400);

    // The poller, which missed nothing, polls on.
    const poll = await api.get(`/api/v1/events?types=lesson.updated&after=${last}`, { token });
    expect(poll.status, poll.text).toBe(200);
    expect(poll.body).toEqual({ items: [], nextCursor: null });
    // So does the GraphQL list, and a subscriber resuming after it (it gets no BAD_USER_INPUT).
    const graph = await api.graphql(`query($after: String) { events(types: ["lesson.updated"], after: $after) { edges { cursor } } }`, { after: last }, { token });
    expect(graph.body, graph.text).toEqual({ data: { events: { edges: [] } } });
    const controller = new AbortController();
    const stream = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ query: SUBSCRIPTION, variables: { types: ['lesson.updated'], after: last } }),
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    let text = '';
    try {
      expect((await update('After the week')).status).toBe(200);
      text = await waitFor('the next lesson.updated streamed', async () => {
        const { value } = await reader.read();
        text += new TextDecoder().decode(value);
        return text.includes('"lesson.updated"') || text.includes('"errors"') ? text : undefined;
      });
    } finally {
      controller.abort();
    }
    expect(text).not.toContain('"errors"');
    expect(text).toContain('"event":"lesson.updated"');
  });
});
