// The rate-limit bench's verdict (bench/limits.ts) is read off the median over rounds of on ÷ off
// within a round: the machine's drift between rounds, which a ratio of medians over all runs
// reads as a cost, does not move it, and its interval is the one order statistics give.
import { describe, expect, it } from 'vitest';
import { medianInterval, pairedCost, pooledCost, roundOrder } from '../bench/limits.js';

/**
 * `rounds` rounds of runs in the bench's order, in time order; `reqPerSec` gives each run its
 * figure from its mode, its round and its place in time (0, 1, 2…).
 */
const runsOf = (rounds: number, reqPerSec: (mode: 'on' | 'off', round: number, at: number) => number) =>
  Array.from({ length: rounds }, (_, i) => i + 1).flatMap((round) =>
    roundOrder(round).map((mode, j) => ({ round, mode, reqPerSec: reqPerSec(mode, round, 2 * (round - 1) + j) })),
  );

describe('the rate-limit verdict', () => {
  it('reads no cost from a machine that slows down mid-run, where the medians over all runs read 17 %', () => {
    // The machine drops from 6,000 to 4,000 req/s after the 13th run (round 7's "off"); within
    // every round limits on and off do the same.
    const runs = runsOf(12, (_mode, _round, at) => (at < 13 ? 6000 : 4000));
    expect(pooledCost(runs)).toBeCloseTo(100 / 6, 3);
    const { paired, pairedCostPercent, costInterval } = pairedCost(runs);
    expect(paired).toBe(1);
    expect(pairedCostPercent).toBe(0);
    expect(costInterval!.low).toBeLessThanOrEqual(0);
    expect(costInterval!.high).toBeGreaterThanOrEqual(0);
  });

  it('reads a real cost of 8 % as 8 %, and its interval holds it', () => {
    const speeds = [5400, 6100, 4800, 5200, 5900, 4500, 5000, 5600, 4700, 6000, 5300, 4900];
    const noise = [1.02, 0.97, 1.01, 0.99, 1.03, 0.98, 1.0, 1.02, 0.96, 1.01, 0.99, 1.0];
    const runs = runsOf(12, (mode, round) => speeds[round - 1]! * (mode === 'on' ? 0.92 * noise[round - 1]! : 1));
    const { pairedCostPercent, costInterval } = pairedCost(runs);
    expect(pairedCostPercent).toBeCloseTo(8, 0);
    expect(costInterval!.low).toBeLessThan(8);
    expect(costInterval!.high).toBeGreaterThan(8);
    expect(costInterval!.high - costInterval!.low).toBeLessThan(6);
  });

  it('gives the order statistics whose coverage is at least 95 %, and none for too few rounds', () => {
    const twelve = [12, 3, 7, 1, 9, 5, 11, 2, 8, 4, 10, 6];
    // n = 12: the 3rd smallest and 3rd largest, 1 − 2·(1 + 12 + 66)/4096.
    expect(medianInterval(twelve)).toEqual({ low: 3, high: 10, coverage: 1 - (2 * 79) / 4096 });
    // n = 6: only the extremes reach 95 % (1 − 2/64).
    expect(medianInterval([6, 5, 4, 3, 2, 1])).toEqual({ low: 1, high: 6, coverage: 1 - 2 / 64 });
    // n = 5: even the extremes cover only 1 − 2/32 < 95 %.
    expect(medianInterval([1, 2, 3, 4, 5])).toBeUndefined();
  });
});
