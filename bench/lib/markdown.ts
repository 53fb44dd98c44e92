// `npm run bench -- --markdown`: the run's results as docs/benchmarks.md, replacing the page.
// One current table, not a log: the page says how the figures were measured and what each goal
// is, then the request scenarios (req/s, CPU per request, ratio to the baseline, goal, verdict)
// and the verdicts of the other groups, with the machine they ran on.

/** One request scenario's rounds, as the run measured them. */
export interface MarkdownScenario {
  name: string;
  /** req/s of each measured run. */
  reqPerSec: number[];
  /** CPU µs of the target process per response, each run. */
  cpuMicros: number[];
  /** Ratio to the baseline of each round, when the scenario has a goal. */
  ratios?: number[];
  median?: number;
  minRatio?: number;
  pass?: boolean;
}

export interface MarkdownInput {
  at: Date;
  /** The machine lines the terminal report starts with (node, cpus, memory, postgresql, …). */
  machine: string;
  baseline: MarkdownScenario;
  goals: MarkdownScenario[];
  /** The other groups' report sections (rate limits, SSE, webhooks, analytics, footprint). */
  sections: string[];
}

const range = (values: number[], digits = 0) => {
  const finite = values.filter(Number.isFinite);
  if (!finite.length) return 'n/a';
  const [lo, hi] = [Math.min(...finite), Math.max(...finite)].map((v) => v.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits }));
  return lo === hi ? lo! : `${lo}–${hi}`;
};

/**
 * The verdicts of a report section, as [name, figure, verdict]: its `PASS  name: figure` lines, and
 * the rows of a plain-text table with a PASS or MISS cell (the footprint's: figure, measured,
 * target, verdict).
 */
export function verdictLines(section: string): [string, string, string][] {
  return section.split('\n').flatMap((line): [string, string, string][] => {
    const match = /^(PASS|MISS)\s+([^:]+):\s*(.*)$/.exec(line);
    if (match) return [[match[2]!.trim(), match[3]!.trim(), match[1]!]];
    const cells = line.trim().split(/\s{2,}/);
    const at = cells.findIndex((c) => c === 'PASS' || c === 'MISS');
    if (at < 2) return [];
    const figure = at === 3 ? `${cells[1]} (goal ${cells[2]})` : cells.slice(1, at).join(', ');
    return [[cells[0]!, figure, cells[at]!]];
  });
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

export function benchmarksMarkdown({ at, machine, baseline, goals, sections }: MarkdownInput): string {
  const day = at.toISOString().slice(0, 10);
  const requestRows = [
    `| ${cell(baseline.name)} | ${range(baseline.reqPerSec)} | ${range(baseline.cpuMicros)} | 1 (the reference) | | |`,
    ...goals.map((g) => {
      const ratio = g.median === undefined ? 'n/a' : `${g.median.toFixed(2)}× (${(g.ratios ?? []).map((r) => r.toFixed(2)).join(', ')})`;
      return `| ${cell(g.name)} | ${range(g.reqPerSec)} | ${range(g.cpuMicros)} | ${ratio} | ≥ ${g.minRatio}× | ${g.pass ? 'PASS' : 'MISS'} |`;
    }),
  ];
  const otherRows = sections.flatMap(verdictLines).map(([name, figure, verdict]) => `| ${cell(name)} | ${cell(figure)} | ${verdict} |`);
  return `# Benchmarks

The current figures of \`npm run bench\`, measured on ${day}. \`npm run bench -- --markdown\`
rewrites this page from a new run; the method is in [testing.md](testing.md#benchmarks), and
the decisions the figures support are in [decisions.md](decisions.md). Besides the request
scenarios, the groups are the rate-limit cost, SSE fan-out, webhook dispatch, page-view
analytics, course stats and the footprint; a group left out of a run (\`BENCH_<GROUP>=0\`) is
not on the page.

## The machine

\`\`\`text
${machine.trim()}
\`\`\`

## Request scenarios

Each scenario runs in rounds against a bare \`node:http\` + \`pg\` server doing the same lookup on
the same database (the baseline); its ratio is its req/s over the baseline runs around it, and a
goal is judged on the median of its rounds. CPU per request is the service process's CPU time
per response, steadier than req/s on a shared machine.

| scenario | req/s | µs/req CPU | ratio vs baseline | goal | verdict |
|---|---|---|---|---|---|
${requestRows.join('\n')}

## Other targets

| target | figure | verdict |
|---|---|---|
${otherRows.length ? otherRows.join('\n') : '| (not run) | | |'}
`;
}
