// Page views over time, drawn with uPlot. Each bar is one exact total from the API
// (`pageViews(from, to)`, the twin of GET /api/analytics/views), whose cost does not grow with the
// number of views recorded; all the bars of a chart are asked in ONE GraphQL request, one alias
// per bucket (24 at most, under the 50-alias limit), so a chart is one request of the budget.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import type { LearningClient, TypedDocument } from '../client/index.js';
import { useConsole } from './context.js';
import { FormError } from './field.js';
import { utcDayMonth, utcHourMinute } from './time.js';
import { useAction } from './use-action.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Range {
  label: string;
  buckets: number;
  /** Bucket width in ms. */
  step: number;
}

/** The x axis's tick spacings (seconds) uPlot may choose from. */
const DAY_TICKS = [1, 2, 3, 7].map((days) => (days * DAY) / 1000);
const TIME_TICKS = [5, 10, 15, 30, 60, 120, 180, 360, 720].map((minutes) => minutes * 60);

const RANGES: Record<string, Range> = {
  hour: { label: 'Last hour', buckets: 12, step: 5 * 60_000 },
  day: { label: 'Last 24 hours', buckets: 24, step: HOUR },
  fortnight: { label: 'Last 14 days', buckets: 14, step: DAY },
};

export interface Series {
  /** Each bucket's start (ms since the epoch, UTC). */
  starts: number[];
  counts: number[];
}

/** The bucket starts of a range ending with the bucket that holds `now` (UTC-aligned). */
export function bucketStarts({ buckets, step }: Range, now: number): number[] {
  const last = now - (now % step);
  return Array.from({ length: buckets }, (_, i) => last - (buckets - 1 - i) * step);
}

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
          <Chart series={drawn.series} step={drawn.range.step} />
        </>
      ) : (
        <p class="muted">Loading…</p>
      )}
    </section>
  );
}

function Chart({ series, step }: { series: Series; step: number }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const style = getComputedStyle(document.documentElement);
    const accent = style.getPropertyValue('--accent').trim() || '#2f5bd3';
    const axis = { stroke: style.getPropertyValue('--muted').trim() || '#5b616b', grid: { stroke: style.getPropertyValue('--line').trim() || '#dfe1e5' } };
    const bars = uPlot.paths.bars?.({ size: [0.7, 48], align: 1 });
    const plot = new uPlot(
      {
        width: Math.max(200, element.clientWidth),
        height: 200,
        legend: { show: false },
        // The buckets are UTC hours and days: ticks fall on UTC boundaries and are labelled as
        // every time in the console is (time.ts), not in uPlot's 12-hour default.
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true, range: (_u, min, max) => [min, max + step / 1000] }, y: { range: (_u, _min, max) => [0, Math.max(4, max * 1.15)] } },
        axes: [
          {
            ...axis,
            // Ticks on whole days for a chart by day (one label per date), else on whole minutes.
            incrs: step >= DAY ? DAY_TICKS : TIME_TICKS,
            values: (_u, splits) => splits.map((s) => (step >= DAY ? utcDayMonth(s * 1000) : utcHourMinute(s * 1000))),
          },
          { ...axis, size: 40 },
        ],
        series: [{}, { label: 'views', stroke: accent, fill: accent, width: 0, points: { show: false }, ...(bars ? { paths: bars } : {}) }],
      },
      [series.starts.map((t) => t / 1000), series.counts],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(200, element.clientWidth), height: 200 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [series, step]);
  return <div class="chart" ref={box} role="img" aria-label={`Page views: ${series.counts.join(', ')}`} />;
}
