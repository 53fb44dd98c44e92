// Retention and the `after` of a client that has seen everything, once one more event comes.
// A poller holds the last event it saw (the list's last item; nextCursor is null on the last page),
// a subscriber the last event it was sent. When that event was past EVENT_RETENTION_DAYS (the
// names it follows are rare), it was kept only while it was the newest of its name: the next event
// of that name made it deletable, and the housekeeping (every minute) deleted it before the client
// came back for the new event, which was minutes old. The poll, or the client library's reconnect,
// then got 400 / BAD_USER_INPUT "unknown or expired event id" and could not reach an event well
// within retention. An event now goes only once a later event of its name is past retention too.
import { describe, expect } from 'vitest';
import { serverTest } from './support/fixtures.js';
import { client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { sql } from './support/server.js';
import { waitFor } from './support/wait.js';

const it = serverTest({ kind: 'postgres', env: { ...NO_RATE_LIMITS, EVENT_RETENTION_DAYS: '1' } });

describe('retention keeps the after of a client that has seen everything when the next event comes', () => {
  it('a poller of a rare name gets the new event of that name after its cursor went past retention', async ({ server: started, api: itsClient, ada }) => {
    // Restarted below: the fixture's clean-up stops the restarted server.
    let server = started;
    let api = itsClient;
    const lessons = await api.get('/api/v1/lessons?limit=1', { token: ada });
    const lessonId = lessons.body.items[0].id as string;
    const update = (title: string) => api.patch(`/api/v1/lessons?id=${lessonId}`, { title }, { token: ada });
    expect((await update('Older news')).status).toBe(200);
    expect((await update('Old news')).status).toBe(200);

    const listed = await waitFor('the lesson.updated events listed', async () => {
      const page = await api.get('/api/v1/events?types=lesson.updated', { token: ada });
      return page.body.items.length === 2 ? (page.body.items as { id: string }[]) : undefined;
    });
    const [older, last] = listed.map((e) => e.id) as [string, string];
    // The poller has seen everything: its cursor is the last item.
    expect((await api.get(`/api/v1/events?types=lesson.updated&after=${last}`, { token: ada })).body).toEqual({ items: [], nextCursor: null });

    // Two days pass; then the lesson changes again, while the poller is away.
    await sql(server, `UPDATE "Event" SET "createdAt" = "createdAt" - interval '2 days'`);
    expect((await update('Fresh news')).status).toBe(200);
    await waitFor('the fresh event listed', async () => {
      const page = await api.get('/api/v1/events?types=lesson.updated', { token: ada });
      return page.body.items.length === 3 || undefined;
    });

    // The housekeeping runs as the relay starts: the older event of the name goes.
    server = await server.restart();
    api = client(server.url);
    const token = (await api.loginAs('ada')).token;
    await waitFor('the events past retention deleted', async () => {
      const [row] = await sql<{ n: string }>(server, `SELECT count(*) AS n FROM "Event" WHERE id = $1`, [older]);
      return row!.n === '0' || undefined;
    });

    // The poller comes back with its cursor and gets the fresh event.
    const poll = await api.get(`/api/v1/events?types=lesson.updated&after=${last}`, { token });
    expect(poll.status, poll.text).toBe(200);
    expect(poll.body.items.map((e: { event: string; lessonId: string }) => [e.event, e.lessonId])).toEqual([['lesson.updated', lessonId]]);
    // So does one that follows every name.
    const all = await api.get(`/api/v1/events?after=${last}`, { token });
    expect(all.status, all.text).toBe(200);
    expect(all.body.items.some((e: { event: string }) => e.event === 'lesson.updated')).toBe(true);
  });
});
