// Page views over time, drawn with uPlot. Each bar is one exact total from the API
// (`pageViews(from, to)`, the twin of GET /api/analytics/views), whose cost does not grow with the
// number of views recorded; all the bars of a chart are asked in ONE GraphQL request, one alias
// per bucket (24 at most, under the 50-alias limit), so a chart is one request of the budget.
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { LearningClient, TypedDocument } from '../client/index.js';
import { BarChart, bucketStarts, DAY, HOUR, type Series } from './chart.js';
import { useConsole } from './context.js';
import { FormError } from './field.js';
import { useAction } from './use-action.js';

interface Range {
  label: string;
  buckets: number;
  /** Bucket width in ms. */
  step: number;
}

const RANGES: Record<string, Range> = {
  hour: { label: 'Last hour', buckets: 12, step: 5 * 60_000 },
  day: { label: 'Last 24 hours', buckets: 24, step: HOUR },
  fortnight: { label: 'Last 14 days', buckets: 14, step: DAY },
};

/** The page views of each bucket [start, start + step), in one GraphQL request. */
export async function pageViewSeries(client: LearningClient, starts: number[], step: number): Promise<Series> {
  const variables: Record<string, string> = {};
  const declarations: string[] = [];
  const fields = starts.map((start, i) => {
    variables[`from${i}`] = new Date(start).toISOString();
    variables[`to${i}`] = new Date(start + step).toISOString();
    declarations.push(`$from${i}: DateTime!`, `$to${i}: DateTime!`);
    return `b${i}: pageViews(from: $from${i}, to: $to${i})`;
  });
  const text = `query PageViewSeries(${declarations.join(', ')}) { ${fields.join(' ')} }`;
  const document: TypedDocument<Record<string, number>, Record<string, string>> = { toString: () => text };
  const data = await client.query(document, variables);
  return { starts, counts: starts.map((_, i) => data[`b${i}`] ?? 0) };
}

export function PageViews() {
  const { client } = useConsole();
  const [rangeName, setRangeName] = useState<keyof typeof RANGES>('day');
  // The series with the range it was asked for: the caption describes what is drawn, also while
  // another range is loading.
  const [drawn, setDrawn] = useState<{ series: Series; range: Range }>();
  const range = RANGES[rangeName]!;

  const load = useAction(
    useCallback(async () => {
      setDrawn({ series: await pageViewSeries(client, bucketStarts(range, Date.now()), range.step), range });
    }, [client, range]),
  );
  const { run: reload } = load;
  useEffect(() => void reload(), [reload]);

  const total = drawn?.series.counts.reduce((a, b) => a + b, 0);
  return (
    <section class="card" aria-labelledby="views-title">
      <div class="section-head">
        <h2 id="views-title">Page views</h2>
        <div class="actions">
          {Object.entries(RANGES).map(([name, r]) => (
            <button key={name} type="button" class={name === rangeName ? 'toggle on' : 'toggle'} aria-pressed={name === rangeName} onClick={() => setRangeName(name)}>
              {r.label}
            </button>
          ))}
          <button type="button" class="secondary" disabled={load.busy} onClick={() => void reload()}>
            Refresh
          </button>
        </div>
      </div>
      <FormError message={load.problem?.message} />
      {drawn ? (
        <>
          <p class="muted">
            <strong class="total">{total}</strong> {total === 1 ? 'view' : 'views'} in the {drawn.range.label.toLowerCase()}, by{' '}
            {drawn.range.step >= DAY ? 'day' : drawn.range.step >= HOUR ? 'hour' : `${drawn.range.step / 60_000} minutes`}
          </p>
          <BarChart series={drawn.series} step={drawn.range.step} label="Page views" className="chart" />
        </>
      ) : (
        <p class="muted">Loading…</p>
      )}
    </section>
  );
}
