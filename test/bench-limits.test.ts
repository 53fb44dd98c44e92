// The rate-limit bench's verdict (bench/limits.ts) is read off the median over rounds of on ÷ off
// within a round: the machine's drift between rounds, which a ratio of medians over all runs
// reads as a cost, does not move it, and its interval is the one order statistics give.
import { describe, expect, it } from 'vitest';
import { medianInterval, pairedCost } from '../bench/limits.js';

/** Rounds alternating off/on, on/off, … as the bench runs them, each at the machine's speed of the moment. */
const rounds = (speeds: number[], onOverOff: (round: number) => number) =>
  speeds.flatMap((speed, i) => {
    const round = i + 1;
    const off = { round, mode: 'off' as const, reqPerSec: speed };
    const on = { round, mode: 'on' as const, reqPerSec: speed * onOverOff(round) };
    return round % 2 ? [off, on] : [on, off];
  });

describe('the rate-limit verdict', () => {
  it('reads no cost from a machine that slows down mid-run, where the medians over all runs read 17 %', () => {
    // 12 rounds, 24 runs in time order; the machine drops from 6,000 to 4,000 req/s after the 13th
    // (round 7's "off"), and within every round limits on and off do the same.
    const runs = Array.from({ length: 24 }, (_, i) => {
      const round = (i >> 1) + 1;
      const first = round % 2 ? 'off' : 'on';
      const mode = i % 2 ? (first === 'off' ? 'on' : 'off') : first;
      return { round, mode: mode as 'on' | 'off', reqPerSec: i < 13 ? 6000 : 4000 };
    });
    const median = (xs: number[]) => (xs.sort((a, b) => a - b), (xs[5]! + xs[6]!) / 2);
    const of = (mode: string) => median(runs.filter((r) => r.mode === mode).map((r) => r.reqPerSec));
    expect(1 - of('on') / of('off')).toBeCloseTo(1 / 6, 3);
    const { paired, pairedCostPercent, costInterval } = pairedCost(runs);
    expect(paired).toBe(1);
    expect(pairedCostPercent).toBe(0);
    expect(costInterval!.low).toBeLessThanOrEqual(0);
    expect(costInterval!.high).toBeGreaterThanOrEqual(0);
  });

  it('reads a real cost of 8 % as 8 %, and its interval holds it', () => {
    const speeds = [5400, 6100, 4800, 5200, 5900, 4500, 5000, 5600, 4700, 6000, 5300, 4900];
    const noise = [1.02, 0.97, 1.01, 0.99, 1.03, 0.98, 1.0, 1.02, 0.96, 1.01, 0.99, 1.0];
    const { pairedCostPercent, costInterval } = pairedCost(rounds(speeds, (round) => 0.92 * noise[round - 1]!));
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
