// The rolling-window rate-limit stores (src/modules/limits), and the limit service over a failing one.
// Exact boundaries are tested on the in-process store with an injected clock; the Redis store
// (which uses the Redis server's clock) is tested against the real Redis server for atomicity
// across connections, for not recording refusals and for expiry, without exact-timing assertions.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStore, type MemoryRateLimitStore } from '../src/modules/limits/memory-store.js';
import { createRedisStore } from '../src/modules/limits/redis-store.js';
import { createRateLimitStore } from '../src/modules/limits/index.js';
import type { RateLimitStore } from '../src/modules/limits/store.js';
import { createLimitService } from '../src/modules/limits/service.js';
import { createLogger } from '../src/logger.js';
import { monitorRedis } from './support/redis-monitor.js';

const MINUTE = 60_000;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('memory rate-limit store (injected clock)', () => {
  let store: MemoryRateLimitStore;
  afterEach(async () => {
    await store.close();
  });

  it('counts remaining down 99…0, refuses the 101st, and allows again exactly when the oldest leaves', async () => {
    store = createMemoryStore();
    const remaining: number[] = [];
    for (let i = 0; i < 100; i++) {
      const d = await store.hit('u', 100, MINUTE, 1_000 + i);
      expect(d.allowed).toBe(true);
      expect(d.retryAfterMs).toBe(0);
      expect(d.limit).toBe(100);
      // The oldest counted request (at 1000) leaves the window at 61000.
      expect(d.resetMs).toBe(61_000 - (1_000 + i));
      remaining.push(d.remaining);
    }
    expect(remaining).toEqual(Array.from({ length: 100 }, (_, i) => 99 - i));

    const refused = await store.hit('u', 100, MINUTE, 1_100);
    expect(refused).toEqual({ allowed: false, limit: 100, remaining: 0, resetMs: 59_900, retryAfterMs: 59_900 });

    // The window is (now − 60000, now]: at 60999 the request at 1000 still counts, at 61000 it does not.
    expect(await store.hit('u', 100, MINUTE, 60_999)).toMatchObject({ allowed: false, resetMs: 1, retryAfterMs: 1 });
    const freed = await store.hit('u', 100, MINUTE, 61_000);
    expect(freed).toMatchObject({ allowed: true, remaining: 0, retryAfterMs: 0, resetMs: 1 }); // next to leave: 1001
    // Only one slot freed.
    expect(await store.hit('u', 100, MINUTE, 61_000)).toMatchObject({ allowed: false, retryAfterMs: 1 });
    expect(await store.hit('u', 100, MINUTE, 61_001)).toMatchObject({ allowed: true });
  });

  it('is rolling: spending 100 at 0:59 leaves nothing for 1:01', async () => {
    store = createMemoryStore();
    for (let i = 0; i < 100; i++) expect((await store.hit('u', 100, MINUTE, 59_000)).allowed).toBe(true);
    const at101 = await store.hit('u', 100, MINUTE, 61_000);
    expect(at101).toMatchObject({ allowed: false, remaining: 0, retryAfterMs: 58_000, resetMs: 58_000 });
    expect((await store.hit('u', 100, MINUTE, 118_999)).allowed).toBe(false);
    expect((await store.hit('u', 100, MINUTE, 119_000)).allowed).toBe(true);
  });

  it('does not record refused requests: after refusals, exactly `limit` are allowed per window', async () => {
    store = createMemoryStore();
    for (let i = 0; i < 5; i++) expect((await store.hit('u', 5, 1_000, 0)).allowed).toBe(true);
    for (let t = 1; t < 1_000; t += 10) {
      const d = await store.hit('u', 5, 1_000, t);
      expect(d).toMatchObject({ allowed: false, remaining: 0, retryAfterMs: 1_000 - t });
    }
    // Had the refusals been recorded, they would still fill the window at 1000.
    const next = [];
    for (let i = 0; i < 7; i++) next.push((await store.hit('u', 5, 1_000, 1_000)).allowed);
    expect(next).toEqual([true, true, true, true, true, false, false]);
  });

  it('refunds exactly the hit a receipt names, once; an unknown receipt removes nothing', async () => {
    store = createMemoryStore();
    const hits = [await store.hit('u', 3, MINUTE, 1_000), await store.hit('u', 3, MINUTE, 2_000), await store.hit('u', 3, MINUTE, 3_000)];
    expect(hits.map((d) => d.allowed)).toEqual([true, true, true]);
    expect((await store.hit('u', 3, MINUTE, 3_500)).receipt).toBeUndefined(); // refused: nothing to give back

    store.refund('u', hits[1]!.receipt!);
    // One slot back, and only that one: the oldest counted request is still the one at 1000.
    expect(await store.hit('u', 3, MINUTE, 4_000)).toMatchObject({ allowed: true, remaining: 0, resetMs: 57_000 });
    // Refunded already, someone else's key, a stamp nobody has, a receipt of another store: nothing.
    store.refund('u', hits[1]!.receipt!);
    store.refund('other', hits[0]!.receipt!);
    store.refund('u', 999);
    store.refund('u', 'not-a-stamp');
    expect(await store.hit('u', 3, MINUTE, 4_001)).toMatchObject({ allowed: false, retryAfterMs: 56_999 });
  });

  it('refunds one of two hits that share a timestamp, not both', async () => {
    store = createMemoryStore();
    const [first] = [await store.hit('u', 2, MINUTE, 0), await store.hit('u', 2, MINUTE, 0)];
    store.refund('u', first!.receipt!);
    expect(await store.hit('u', 2, MINUTE, 1)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await store.hit('u', 2, MINUTE, 2)).allowed).toBe(false);
  });

  it('a key loaded for many windows stays exact: `limit` allowed in every window, remaining and reset right, an expired receipt refunds nothing', async () => {
    store = createMemoryStore();
    // One request every 10 ms for 20 s against 50 per second: the log fills and drains 20 times
    // over (the expired stamps are dropped from its front in batches).
    const allowedAt: number[] = [];
    let lastAllowed: Awaited<ReturnType<MemoryRateLimitStore['hit']>> | undefined;
    for (let t = 0; t < 20_000; t += 10) {
      const d = await store.hit('busy', 50, 1_000, t);
      if (d.allowed) {
        allowedAt.push(t);
        lastAllowed = d;
      }
    }
    // Every rolling window (t − 1000, t] holds at most 50 allowed, and each second's first 50 were allowed.
    for (let i = 50; i < allowedAt.length; i++) expect(allowedAt[i]! - allowedAt[i - 50]!).toBeGreaterThanOrEqual(1_000);
    expect(allowedAt).toHaveLength(20 * 50);
    expect(allowedAt.slice(0, 3)).toEqual([0, 10, 20]);
    expect(allowedAt.slice(50, 53)).toEqual([1_000, 1_010, 1_020]);
    expect(lastAllowed).toMatchObject({ remaining: 0, resetMs: 1_000 - 490 });
    // A receipt whose stamp left the window gives nothing back: the next request is still refused.
    store.refund('busy', 18_000);
    expect(await store.hit('busy', 50, 1_000, 19_995)).toMatchObject({ allowed: false });
    // The newest one's does.
    store.refund('busy', lastAllowed!.receipt!);
    expect(await store.hit('busy', 50, 1_000, 19_995)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('keeps keys independent', async () => {
    store = createMemoryStore();
    for (let i = 0; i < 3; i++) await store.hit('a', 3, MINUTE, 0);
    expect((await store.hit('a', 3, MINUTE, 0)).allowed).toBe(false);
    expect(await store.hit('b', 3, MINUTE, 0)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('drops idle keys on sweep', async () => {
    store = createMemoryStore();
    await store.hit('a', 3, 1_000, 0);
    await store.hit('b', 3, 5_000, 0);
    expect(store.size).toBe(2);
    store.sweep(999);
    expect(store.size).toBe(2);
    store.sweep(1_000);
    expect(store.size).toBe(1);
    store.sweep(5_000);
    expect(store.size).toBe(0);
  });

  it('rejects nonsensical limits', async () => {
    store = createMemoryStore();
    await expect(store.hit('a', 0, MINUTE, 0)).rejects.toThrow(RangeError);
    await expect(store.hit('a', 5, 0, 0)).rejects.toThrow(RangeError);
  });

  it('createRateLimitStore without redisUrl is in-process', async () => {
    store = createMemoryStore();
    const s = createRateLimitStore({ prefix: 'x:' });
    expect((await s.hit('k', 1, MINUTE, 0)).allowed).toBe(true);
    expect((await s.hit('k', 1, MINUTE, 1)).allowed).toBe(false);
    await s.close();
  });
});

describe('redis rate-limit store (real Redis)', () => {
  const prefix = `learnstream:rl-test:${randomBytes(6).toString('hex')}:`;
  let admin: Redis;
  let a: RateLimitStore;
  let b: RateLimitStore;

  beforeAll(() => {
    admin = new Redis(REDIS_URL, { maxRetriesPerRequest: 3 });
    a = createRedisStore({ redisUrl: REDIS_URL, prefix });
    b = createRateLimitStore({ redisUrl: REDIS_URL, prefix }); // a second connection, like a second process
  });
  afterAll(async () => {
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length) await admin.del(...keys);
    await Promise.all([a.close(), b.close()]);
    await admin.quit();
  });

  it('admits exactly `limit` of 200 concurrent hits from two connections, and records only those', async () => {
    const hits = Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).hit('burst', 50, MINUTE));
    const decisions = await Promise.all(hits);
    const allowed = decisions.filter((d) => d.allowed);
    expect(allowed).toHaveLength(50);
    expect(allowed.map((d) => d.remaining).sort((x, y) => y - x)).toEqual(Array.from({ length: 50 }, (_, i) => 49 - i));
    for (const d of decisions.filter((d) => !d.allowed)) {
      expect(d.remaining).toBe(0);
      expect(d.retryAfterMs).toBeGreaterThan(0);
      expect(d.retryAfterMs).toBeLessThanOrEqual(MINUTE);
      expect(d.resetMs).toBe(d.retryAfterMs);
    }
    expect(await admin.zcard(`${prefix}burst`)).toBe(50);
    const ttl = await admin.pttl(`${prefix}burst`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(MINUTE);
  });

  it('counts the hits of one key asked together in one script call, in the order they were asked, exactly', async () => {
    const monitor = await monitorRedis(REDIS_URL);
    try {
      // 300 hits of one key at once (more than one call takes, so two calls), 280 allowed; and another key beside them.
      const decisions = await Promise.all(Array.from({ length: 300 }, () => a.hit('together', 280, MINUTE)));
      const beside = await Promise.all([a.hit('beside', 280, MINUTE), a.hit('beside', 280, MINUTE)]);
      await monitor.settled();
      const scripts = (key: string) => monitor.commands.filter((args) => args[0]!.toLowerCase() === 'evalsha' && args.includes(`${prefix}${key}`));
      expect(scripts('together')).toHaveLength(2);
      expect(scripts('beside')).toHaveLength(1);

      // First asked, first served: remaining counts down 279…0 over the first 280, then 20 refusals.
      expect(decisions.map((d) => d.allowed)).toEqual([...Array<boolean>(280).fill(true), ...Array<boolean>(20).fill(false)]);
      expect(decisions.slice(0, 280).map((d) => d.remaining)).toEqual(Array.from({ length: 280 }, (_, i) => 279 - i));
      for (const d of decisions) {
        expect(d.resetMs).toBeGreaterThan(0);
        expect(d.resetMs).toBeLessThanOrEqual(MINUTE);
      }
      expect(decisions.slice(280).every((d) => d.remaining === 0 && d.retryAfterMs === d.resetMs && d.receipt === undefined)).toBe(true);
      expect(beside.map((d) => d.remaining)).toEqual([279, 278]);

      // Each admitted hit has a receipt of its own: a refund gives back exactly that one.
      const receipts = decisions.slice(0, 280).map((d) => String(d.receipt));
      expect(new Set(receipts).size).toBe(280);
      expect(await admin.zcard(`${prefix}together`)).toBe(280);
      await b.refund('together', receipts[7]!);
      const left = await admin.zrange(`${prefix}together`, 0, -1);
      expect(left).toHaveLength(279);
      expect(left).not.toContain(receipts[7]);
      expect(await b.hit('together', 280, MINUTE)).toMatchObject({ allowed: true, remaining: 0 });
      expect((await a.hit('together', 280, MINUTE)).allowed).toBe(false);
    } finally {
      monitor.close();
    }
  });

  it('counts remaining down and reports a reset within the window', async () => {
    const seen = [];
    for (let i = 0; i < 4; i++) {
      const d = await a.hit('countdown', 4, MINUTE);
      expect(d.allowed).toBe(true);
      expect(d.retryAfterMs).toBe(0);
      expect(d.resetMs).toBeGreaterThan(0);
      expect(d.resetMs).toBeLessThanOrEqual(MINUTE);
      seen.push(d.remaining);
    }
    expect(seen).toEqual([3, 2, 1, 0]);
    expect(await b.hit('countdown', 4, MINUTE)).toMatchObject({ allowed: false, remaining: 0 });
    expect((await a.hit('other-key', 4, MINUTE)).remaining).toBe(3);
  });

  it('frees slots when entries leave a short window; refusals in between consume nothing', async () => {
    const window = 300;
    for (let i = 0; i < 3; i++) expect((await a.hit('short', 3, window)).allowed).toBe(true);
    const refused = await b.hit('short', 3, window);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(window);
    for (let i = 0; i < 20; i++) await b.hit('short', 3, window);
    expect(await admin.zcard(`${prefix}short`)).toBe(3);

    // Wait (with a deadline) until a slot frees.
    const deadline = Date.now() + 5_000;
    let freed = false;
    while (!freed && Date.now() < deadline) {
      freed = (await a.hit('short', 3, window)).allowed;
      if (!freed) await new Promise((r) => setTimeout(r, 20));
    }
    expect(freed).toBe(true);
    // Within one window after that, at most `limit` in total are admitted.
    let more = 0;
    for (let i = 0; i < 10; i++) if ((await b.hit('short', 3, window)).allowed) more++;
    expect(more).toBeLessThanOrEqual(2);
    expect(await admin.zcard(`${prefix}short`)).toBeLessThanOrEqual(3);
  });

  it('refunds exactly the member a hit added, from any connection, once; an unknown receipt removes nothing', async () => {
    const hits = [await a.hit('refund', 3, MINUTE), await a.hit('refund', 3, MINUTE), await a.hit('refund', 3, MINUTE)];
    const members = hits.map((d) => d.receipt);
    expect(members.every((m) => typeof m === 'string')).toBe(true);
    expect(new Set(members).size).toBe(3);
    expect((await b.hit('refund', 3, MINUTE)).receipt).toBeUndefined(); // refused: nothing to give back

    await b.refund('refund', members[1]!);
    expect(await admin.zrange(`${prefix}refund`, 0, -1)).toEqual([members[0], members[2]]);
    // Refunded already, someone else's key, a member nobody added: nothing.
    await a.refund('refund', members[1]!);
    await a.refund('other-refund', members[0]!);
    await a.refund('refund', 'no-such-member');
    expect(await admin.zcard(`${prefix}refund`)).toBe(2);
    expect(await a.hit('refund', 3, MINUTE)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await b.hit('refund', 3, MINUTE)).allowed).toBe(false);
  });

  it('counts the hits a fresh store gets before its first connection, and those after it', async () => {
    const fresh = createRedisStore({ redisUrl: REDIS_URL, prefix });
    try {
      // Asked at once, before the connection is up: counted (not failed, which would let it through).
      const early = await Promise.all([fresh.hit('fresh', 5, MINUTE), fresh.hit('fresh', 5, MINUTE)]);
      expect(early.map((d) => d.remaining).sort()).toEqual([3, 4]);
      expect(await fresh.hit('fresh', 5, MINUTE)).toMatchObject({ allowed: true, remaining: 2 });
      expect(await admin.zcard(`${prefix}fresh`)).toBe(3);
    } finally {
      await fresh.close();
    }
  });

  it('rejects nonsensical limits, as the in-process store does', async () => {
    await expect(a.hit('bad', 0, MINUTE)).rejects.toThrow(RangeError);
    await expect(a.hit('bad', 1, 0.5)).rejects.toThrow(RangeError);
  });
});

describe('the limit service over a failing store', () => {
  // A store is pluggable (RateLimitStore): one that fails, by rejecting as Redis does when it is
  // unreachable or by throwing, must let the caller through without limit headers, and be logged.
  const failing: Record<string, RateLimitStore> = {
    rejects: { hit: () => Promise.reject(new Error('store down')), refund: () => Promise.reject(new Error('store down')), close: async () => {} },
    throws: {
      hit: () => {
        throw new Error('store broken');
      },
      refund: () => {
        throw new Error('store broken');
      },
      close: async () => {},
    },
  };
  for (const [how, limits] of Object.entries(failing)) {
    it(`lets the request through, without headers, when the store ${how}, and logs it`, async () => {
      const lines: string[] = [];
      const log = createLogger('error', { write: (line: string) => void lines.push(line) });
      const service = createLimitService({ config: { rateLimit: { free: 1, pro: 1, windowSeconds: 60 } }, limits, log });
      expect(await service.admit(null, '192.0.2.1')).toBeNull();
      expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['rate-limit store failed: letting requests through unlimited']);
    });
  }

  for (const [how, broken] of Object.entries(failing)) {
    it(`goes on when the store ${how} on a refund, keeping the headers as counted, and logs it once`, async () => {
      const lines: string[] = [];
      const log = createLogger('warn', { write: (line: string) => void lines.push(line) });
      // Counted by a working store, refunded by one that fails (Redis went away in between).
      const working = createMemoryStore();
      const limits: RateLimitStore = { hit: (key, limit, windowMs) => working.hit(key, limit, windowMs), refund: broken.refund, close: async () => {} };
      try {
        const service = createLimitService({ config: { rateLimit: { free: 5, pro: 5, windowSeconds: 60 } }, limits, log });
        const admission = (await service.admit(null, '192.0.2.2'))!;
        expect(admission.headers['x-ratelimit-remaining']).toBe('4');
        await service.refund(admission);
        await service.refund(admission); // at most once: not tried (nor logged) again
        expect(admission.headers['x-ratelimit-remaining']).toBe('4');
        expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['rate-limit store failed to refund a refused request: it stays counted']);
      } finally {
        await working.close();
      }
    });
  }
});

describe('the limit service refunding a request', () => {
  it('gives the hit back once, and its headers show the budget after the refund', async () => {
    const store = createMemoryStore();
    try {
      const service = createLimitService({ config: { rateLimit: { free: 5, pro: 5, windowSeconds: 60 } }, limits: store, log: createLogger('error', { write: () => {} }) });
      await service.admit(null, '192.0.2.3');
      const admission = (await service.admit(null, '192.0.2.3'))!;
      expect(admission.headers).toMatchObject({ ratelimit: expect.stringMatching(/^"free";r=3;t=\d+$/), 'x-ratelimit-remaining': '3' });
      await service.refund(admission);
      expect(admission.headers).toMatchObject({ ratelimit: expect.stringMatching(/^"free";r=4;t=\d+$/), 'x-ratelimit-remaining': '4' });
      await service.refund(admission);
      expect(admission.headers['x-ratelimit-remaining']).toBe('4');
      // One slot came back, not two: the next request leaves 3, as if the refunded one was never sent.
      expect((await service.admit(null, '192.0.2.3'))!.headers['x-ratelimit-remaining']).toBe('3');
    } finally {
      await store.close();
    }
  });
});
