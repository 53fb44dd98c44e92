// Memory and CPU time of processes (and of the machine) from /proc (Linux), `ps` elsewhere; a
// sampler reads a process every 200 ms to catch its peak RSS.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CLOCK_TICKS = 100; // USER_HZ on Linux

export interface ProcStats {
  /** Resident set size now, KiB. */
  rssKb: number;
  /** Peak resident set size over the process's life (VmHWM), KiB; NaN where unknown. */
  hwmKb: number;
  /** User + system CPU time used so far, seconds; NaN where unknown. */
  cpuSeconds: number;
}

export async function readStats(pid: number): Promise<ProcStats | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpu = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    return { rssKb: kb('VmRSS'), hwmKb: kb('VmHWM'), cpuSeconds: cpu };
  } catch {
    try {
      const { stdout } = await run('ps', ['-o', 'rss=', '-p', String(pid)]);
      const rss = Number(stdout.trim());
      return Number.isFinite(rss) && rss > 0 ? { rssKb: rss, hwmKb: NaN, cpuSeconds: NaN } : undefined;
    } catch {
      return undefined;
    }
  }
}

export class Sampler {
  private timer: NodeJS.Timeout | undefined;
  /** Highest RSS sampled since start(). */
  peakKb = 0;
  /** Highest RSS sampled since the last resetWindow(). */
  windowPeakKb = 0;
  last: ProcStats | undefined;

  constructor(readonly pid: number, private readonly intervalMs = 200) {}

  start(): this {
    this.timer = setInterval(() => void this.sample(), this.intervalMs);
    this.timer.unref();
    return this;
  }

  async sample(): Promise<ProcStats | undefined> {
    const stats = await readStats(this.pid);
    if (stats) {
      this.last = stats;
      this.peakKb = Math.max(this.peakKb, stats.rssKb);
      this.windowPeakKb = Math.max(this.windowPeakKb, stats.rssKb);
    }
    return stats;
  }

  resetWindow(): void {
    this.windowPeakKb = this.last?.rssKb ?? 0;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** Busy CPU time of the whole machine so far, seconds (all cores; NaN where /proc is missing). */
export async function machineBusySeconds(): Promise<number> {
  try {
    const line = (await readFile('/proc/stat', 'utf8')).split('\n', 1)[0]!;
    // cpu user nice system idle iowait irq softirq steal ...
    const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
    return (user! + nice! + system! + irq! + softirq! + (steal ?? 0)) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
