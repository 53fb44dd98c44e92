// Exactly once, across instances: two instances (processes, as `npm start` runs them) on one PostgreSQL database, 1,000 lessons each
// created and then published by ten concurrent senders split across both, every send of one step
// with the same Idempotency-Key (a client retrying without waiting for its first try). Every
// answer is a success, the stored one replayed byte for byte, or 409 while the first is running;
// and the database holds exactly 1,000 lessons and 1,000 lesson.published events.
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Client, Reply } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { processPool } from './support/process.js';
import { queryDb } from './support/server.js';

const LESSONS = 1_000;
const SENDERS = 10;
/** Lessons in flight at once (each with SENDERS sends per step): bounded, for a 2-core machine. */
const IN_FLIGHT = 25;
const IN_PROGRESS = /first request with this Idempotency-Key is still in progress/;

const pool = processPool();
afterAll(() => pool.cleanup());
let apis: [Client, Client];
let databaseUrl: string;
let token: string;
const run = `${process.pid}-${Date.now()}`;

beforeAll(async () => {
  const cluster = await pool.cluster(NO_RATE_LIMITS);
  apis = [cluster.a.api, cluster.b.api];
  databaseUrl = cluster.databaseUrl;
  token = (await apis[0].loginAs('ada')).token;
});

const sql = <T extends pg.QueryResultRow>(text: string, params: unknown[]): Promise<T[]> => queryDb<T>(databaseUrl, text, params);

/**
 * SENDERS sends of one step at once, alternating between the instances, then one more once they
 * are all answered: every answer is `status` or 409 while the first send runs; exactly one send
 * ran (the others' successes are replays of its answer, byte for byte), and the send after them
 * all gets that answer too. The answer that ran.
 */
async function everySender(step: (api: Client) => Promise<Reply>, status: number): Promise<Reply> {
  const replies = await Promise.all(Array.from({ length: SENDERS }, (_, i) => step(apis[i % 2]!)));
  for (const reply of replies) {
    if (reply.status === 409) expect(reply.body.message).toMatch(IN_PROGRESS);
    else expect(reply.status, reply.text).toBe(status);
  }
  const ran = replies.filter((r) => r.status === status && r.headers.get('idempotent-replayed') === null);
  expect(ran).toHaveLength(1);
  const replayed = [...replies.filter((r) => r.headers.get('idempotent-replayed') === 'true'), await step(apis[1]!)];
  for (const reply of replayed) {
    expect(reply.headers.get('idempotent-replayed')).toBe('true');
    expect(reply.status).toBe(status);
    expect(reply.text).toBe(ran[0]!.text);
  }
  return ran[0]!;
}

async function lesson(i: number): Promise<void> {
  const headers = (step: string) => ({ token, headers: { 'idempotency-key': `${run}-${step}-${i}` } });
  const created = await everySender((api) => api.post('/api/v1/lessons', { title: `Exactly once ${run} #${i}`, body: 'b' }, headers('create')), 201);
  const id = created.body.id as string;
  const published = await everySender((api) => api.post(`/api/v1/lessons/publish?id=${id}`, undefined, headers('publish')), 200);
  expect(published.body).toMatchObject({ id, status: 'PUBLISHED' });
}

it('creates and publishes each of 1,000 lessons exactly once, with ten concurrent senders per step on two instances', { timeout: 300_000 }, async () => {
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < LESSONS) await lesson(next++);
    }),
  );
  const [lessons] = await sql<{ n: string }>('SELECT count(*) AS n FROM "Lesson" WHERE title LIKE $1', [`Exactly once ${run} #%`]);
  expect(Number(lessons!.n)).toBe(LESSONS);
  const [events] = await sql<{ n: string; distinct: string }>(
    `SELECT count(*) AS n, count(DISTINCT l.id) AS distinct FROM "Event" e JOIN "Lesson" l ON l.id = e.payload->>'lessonId'
      WHERE e.type = 'lesson.published' AND l.title LIKE $1`,
    [`Exactly once ${run} #%`],
  );
  expect(Number(events!.n)).toBe(LESSONS);
  expect(Number(events!.distinct)).toBe(LESSONS);
});
