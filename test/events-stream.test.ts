// The event stream on its own (real embedded database, in-process bus): a subscriber that goes
// away is let go at once, not at the next event.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../src/modules/auth/caller.js';
import type { Database } from '../src/db/client.js';
import { openDatabase } from '../src/db/open-database.js';
import { createEventBus } from '../src/modules/events/bus/create-event-bus.js';
import { createEventService } from '../src/modules/events/service.js';

const caller: Caller = {
  userId: 'usr_test', role: 'MEMBER', tier: 'FREE', sessionId: 'ses_test',
  user: { id: 'usr_test', name: 'Test', email: 't@example.com', role: 'MEMBER', tier: 'FREE', createdAt: new Date() },
};

describe('event stream', () => {
  let dir: string;
  let db: Database;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'learnstream-stream-'));
    db = await openDatabase({ databaseUrl: undefined, dataDir: dir, dbPoolSize: 1 });
    await db.migrate();
  });
  afterAll(async () => {
    await db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('ends a waiting subscription as soon as the subscriber returns, without another event', async () => {
    const bus = createEventBus({ channel: 'test' });
    const events = createEventService({ db: db.prisma, bus });
    const stream = await events.stream({ caller });
    const pending = stream.next(); // waits for a live event that never comes
    const ended = await Promise.race([
      stream.return!(undefined).then(() => 'returned'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2_000)),
    ]);
    expect(ended).toBe('returned');
    await expect(pending).resolves.toEqual({ value: undefined, done: true });
    // The bus has let it go: a later event reaches no one (and nothing throws).
    bus.publish({ id: 'evt_x', position: 1, payload: { event: 'analytics.hit', timestamp: new Date().toISOString(), path: '/x' } });
  });
});
