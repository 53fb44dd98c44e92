// The verdicts of `npm run soak` (scripts/soak/checks.ts) can each fail: fed a lost event, a
// stray 503, an unearned 429, a reset outside a kill or growing memory, they say so.
import { describe, expect, it } from 'vitest';
import {
  BudgetTracker,
  checkStream,
  judge,
  KILL_GRACE_MS,
  POSTGRES_GRACE_MS,
  rssFlatness,
  unrecorded,
  type FaultWindow,
  type RequestResult,
} from '../scripts/soak/checks.js';

const T = 1_000_000;
const faults: FaultWindow[] = [
  { fault: 'kill', instance: 1, from: T, to: T + 3_000 },
  { fault: 'postgres', from: T + 10_000, to: T + 14_000 },
  { fault: 'redis', from: T + 20_000, to: T + 30_000 },
];
const result = (over: Partial<RequestResult>): RequestResult => ({ kind: 'REST read', budget: 'unlimited', instance: 0, start: T + 40_000, end: T + 40_050, status: 200, ...over });

describe('judge', () => {
  it('passes a success and fails a 500, a GraphQL INTERNAL_SERVER_ERROR and a malformed body', () => {
    expect(judge(result({}), faults).verdict).toBe('ok');
    expect(judge(result({ status: 500, bodyCode: 500 }), faults)).toEqual({ verdict: 'failed', reason: 'HTTP 500' });
    expect(judge(result({ graphqlCodes: ['INTERNAL_SERVER_ERROR'] }), faults).verdict).toBe('failed');
    expect(judge(result({ wellFormed: false }), faults).verdict).toBe('failed');
  });

  it('allows a 503 only while PostgreSQL was down (and its grace), with the contract shape', () => {
    const during = { start: T + 11_000, end: T + 11_100 };
    expect(judge(result({ ...during, status: 503, bodyCode: 503 }), faults).verdict).toBe('allowed 503');
    expect(judge(result({ ...during, status: 200, graphqlCodes: ['UNAVAILABLE'] }), faults).verdict).toBe('allowed 503');
    expect(judge(result({ start: T + 14_000 + POSTGRES_GRACE_MS - 10, end: T + 14_000 + POSTGRES_GRACE_MS + 500, status: 503, bodyCode: 503 }), faults).verdict).toBe('allowed 503');
    expect(judge(result({ ...during, status: 503 }), faults).verdict).toBe('failed'); // no error body
    expect(judge(result({ status: 503, bodyCode: 503 }), faults).reason).toBe('503 while PostgreSQL was up');
    // Redis down is no excuse: the contract lets requests through unlimited then.
    expect(judge(result({ start: T + 25_000, end: T + 25_100, status: 503, bodyCode: 503 }), faults).verdict).toBe('failed');
  });

  it('allows a 429 only to a client whose own count shows its budget spent, with Retry-After', () => {
    expect(judge(result({ budget: 'greedy', status: 429, hasRetryAfter: true, budgetSpent: true }), faults).verdict).toBe('allowed 429');
    expect(judge(result({ budget: 'paced', status: 429, hasRetryAfter: true, budgetSpent: false }), faults).verdict).toBe('failed');
    expect(judge(result({ budget: 'greedy', status: 429, hasRetryAfter: false, budgetSpent: true }), faults).verdict).toBe('failed');
    expect(judge(result({ status: 200, graphqlCodes: ['RATE_LIMITED'], budgetSpent: true }), faults).verdict).toBe('failed');
  });

  it('allows a 409 only to the resend of an Idempotency-Key not yet answered with success, with the error body', () => {
    expect(judge(result({ kind: 'idempotent write', status: 409, bodyCode: 409, idempotentResend: true }), faults).verdict).toBe('allowed 409');
    expect(judge(result({ kind: 'idempotent write', status: 409, bodyCode: 409 }), faults)).toEqual({ verdict: 'failed', reason: 'HTTP 409' });
    expect(judge(result({ kind: 'idempotent write', status: 409, idempotentResend: true }), faults)).toEqual({ verdict: 'failed', reason: '409 without the error body' });
  });

  it('excuses a missing response only on the killed instance, around the kill', () => {
    expect(judge(result({ instance: 1, start: T - 100, end: T + 5, status: 0, transportError: 'ECONNRESET' }), faults).verdict).toBe('cut by kill -9');
    expect(judge(result({ instance: 0, start: T - 100, end: T + 5, status: 0, transportError: 'ECONNRESET' }), faults).verdict).toBe('failed');
    expect(judge(result({ instance: 1, start: T - 100, end: T + KILL_GRACE_MS + 100, status: 0, transportError: 'TimeoutError' }), faults).verdict).toBe('failed');
    expect(judge(result({ instance: 1, status: 0, transportError: 'ECONNRESET' }), faults).reason).toBe('no response (ECONNRESET)');
  });
});

describe('BudgetTracker', () => {
  it('counts what was admitted within the window before the refused request', () => {
    const budget = new BudgetTracker(3, 60_000);
    for (const end of [T, T + 1_000]) budget.record({ status: 200, end });
    budget.record({ status: 429, end: T + 1_500 });
    expect(budget.spent(T + 2_000)).toBe(false);
    budget.record({ status: 200, end: T + 2_000 });
    expect(budget.spent(T + 2_100)).toBe(true);
    expect(budget.spent(T + 61_000)).toBe(true); // a second of slack for the two clocks
    expect(budget.spent(T + 61_500)).toBe(false); // the first has left the window
  });
});

describe('checkStream', () => {
  const expected = ['a', 'b', 'c', 'd'].map((id, i) => ({ id, position: i + 1 }));

  it('passes every event once, in order, across a resume', () => {
    expect(checkStream(expected, [['a', 'b'], ['c', 'd']])).toMatchObject({ received: 4, missing: 0, duplicates: 0, outOfOrder: 0, unexpected: 0 });
  });

  it('reports a lost event, a duplicate, a reordering and a stranger', () => {
    const c = checkStream(expected, [['a', 'c'], ['c', 'b', 'x']]);
    expect(c).toMatchObject({ missing: 1, missingSample: ['d'], duplicates: 1, outOfOrder: 1, unexpected: 1 });
  });
});

describe('unrecorded', () => {
  it('lists the acknowledged writes the database does not have', () => {
    expect(unrecorded(['/a', '/b'], new Set(['/a']))).toEqual(['/b']);
  });
});

describe('rssFlatness', () => {
  const series = (kbAt: (i: number) => number) => Array.from({ length: 60 }, (_, i) => ({ at: T + i * 1_000, kb: kbAt(i) }));

  it('calls a level series with garbage-collection noise flat', () => {
    const f = rssFlatness(series((i) => 200_000 + (i % 7) * 3_000), T, T + 59_000);
    expect(f.flat).toBe(true);
  });

  it('calls a steady climb growth', () => {
    const f = rssFlatness(series((i) => 200_000 + i * 1_000), T, T + 59_000); // ~58 MB a minute
    expect(f.flat).toBe(false);
    expect(f.growthKb).toBeGreaterThan(f.toleranceKb);
  });

  it('does not call too few samples flat', () => {
    expect(rssFlatness(series(() => 200_000).slice(0, 3), T, T + 59_000).flat).toBe(false);
  });
});
