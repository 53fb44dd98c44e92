// `npm run bench -- --markdown` writes docs/benchmarks.md: one current table of the request
// scenarios and the other groups' verdicts, in the shape the seeded page has. No bench is run.
import { describe, expect, it } from 'vitest';
import { benchmarksMarkdown, verdictLines } from '../bench/lib/markdown.js';
import { table } from '../bench/lib/report.js';

describe('the benchmarks page', () => {
  it('reads verdict lines and table rows with a verdict cell', () => {
    const footprint = table(
      ['figure', 'measured', 'target', '', 'first start'],
      [
        ['RSS 10 s after start, serving process on PostgreSQL', '161 MB', '< 150 MB', 'MISS', '170 MB'],
        ['  after 60 s without requests (information)', '118 MB', '', '', '—'],
      ],
      [false, true, true, false, true],
    );
    expect(verdictLines(`Footprint\n${footprint}\nPASS  SSE subscriptions: p99 441 ms (goal p99 < 500 ms)`)).toEqual([
      ['RSS 10 s after start, serving process on PostgreSQL', '161 MB (goal < 150 MB)', 'MISS'],
      ['SSE subscriptions', 'p99 441 ms (goal p99 < 500 ms)', 'PASS'],
    ]);
  });

  it('writes one table of the request scenarios and one of the other targets', () => {
    const page = benchmarksMarkdown({
      at: new Date('2026-11-29T09:00:00Z'),
      machine: 'node          v20.20.2\ncpus          2 × AMD EPYC',
      baseline: { name: 'baseline: node:http + pg, GET /users/:id', reqPerSec: [5019, 6843], cpuMicros: [145, 104] },
      goals: [{ name: 'REST GET /api/users/{id}', reqPerSec: [10601, 9223], cpuMicros: [93, 100], ratios: [1.95, 1.55], median: 1.74, minRatio: 0.8, pass: true }],
      sections: ['MISS  webhook dispatch: 2287 deliveries/s | end to end (goal ≥ 3,000)'],
    });
    expect(page).toContain('measured on 2026-11-29');
    expect(page).toContain('| baseline: node:http + pg, GET /users/:id | 5,019–6,843 | 104–145 | 1 (the reference) | | |');
    expect(page).toContain('| REST GET /api/users/{id} | 9,223–10,601 | 93–100 | 1.74× (1.95, 1.55) | ≥ 0.8× | PASS |');
    expect(page).toContain('| webhook dispatch | 2287 deliveries/s \\| end to end (goal ≥ 3,000) | MISS |');
    expect(page).toContain('node          v20.20.2');
  });
});
