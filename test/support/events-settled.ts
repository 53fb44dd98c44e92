// Counting events as GET /api/v1/events shows them, once every change made so far is visible
// there: the relay positions committed events shortly after they commit, in commit order, so a
// marker change made after the ones counted is visible only once they are.
import { expect } from 'vitest';
import type { Client } from './http.js';

export function settledEvents(api: Client, adminToken: () => string) {
  let marker: string | undefined;
  let marks = 0;
  async function all(types: string): Promise<Record<string, string>[]> {
    const items: Record<string, string>[] = [];
    let after: string | null = null;
    do {
      const reply = await api.get(`/api/v1/events?types=${types}&limit=1000${after ? `&after=${after}` : ''}`, { token: adminToken() });
      expect(reply.status, reply.text).toBe(200);
      items.push(...(reply.body.items as Record<string, string>[]));
      after = reply.body.nextCursor as string | null;
    } while (after);
    return items;
  }
  /** How many events of `type` name `id` (as `field`), once everything committed before the call is visible. */
  return async function count(type: string, field: 'lessonId' | 'userId', id: string): Promise<number> {
    marker ??= (await api.post('/api/v1/lessons', { title: 'Marker', body: 'm' }, { token: adminToken() })).body.id as string;
    const mark = await api.patch(`/api/v1/lessons?id=${marker}`, { title: `Marker ${++marks}` }, { token: adminToken() });
    expect(mark.status, mark.text).toBe(200);
    for (let attempt = 0; ; attempt++) {
      const items = await all(`${type},lesson.updated`);
      if (items.filter((e) => e.event === 'lesson.updated' && e.lessonId === marker).length >= marks) {
        return items.filter((e) => e.event === type && e[field] === id).length;
      }
      if (attempt > 100) throw new Error('events did not appear within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
}
