// The console's bar chart (uPlot): one bar per UTC-aligned bucket, the x axis labelled as every
// time in the console is (24-hour UTC, time.ts), following its box's width as the window narrows.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { utcDayMonth, utcHourMinute } from './time.js';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export interface Series {
  /** Each bucket's start (ms since the epoch, UTC). */
  starts: number[];
  counts: number[];
}

/** The bucket starts of `buckets` buckets of `step` ms ending with the one that holds `now` (UTC-aligned). */
export function bucketStarts({ buckets, step }: { buckets: number; step: number }, now: number): number[] {
  const last = now - (now % step);
  return Array.from({ length: buckets }, (_, i) => last - (buckets - 1 - i) * step);
}

/** The x axis's tick spacings (seconds) uPlot may choose from. */
const DAY_TICKS = [1, 2, 3, 7].map((days) => (days * DAY) / 1000);
const TIME_TICKS = [5, 10, 15, 30, 60, 120, 180, 360, 720].map((minutes) => minutes * 60);

/**
 * `label` names what is counted: the accessible label reads `<label>: <count>, <count>…`, oldest
 * first. `className` tells one chart from another on the page.
 */
export function BarChart({ series, step, label, className }: { series: Series; step: number; label: string; className: string }) {
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
        series: [{}, { label, stroke: accent, fill: accent, width: 0, points: { show: false }, ...(bars ? { paths: bars } : {}) }],
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
  }, [series, step, label]);
  return <div class={className} ref={box} role="img" aria-label={`${label}: ${series.counts.join(', ')}`} />;
}
