// Loaded into a server process with `--import` when BENCH_PROFILE is set: each SIGUSR2 toggles
// a CPU profile (node:inspector), so only the measured run is profiled, not start-up or
// warm-up. Stopping writes `$BENCH_PROFILE_DIR/profile-<n>.cpuprofile` (open it in Chrome
// DevTools or summarise it with bench/profile-summary.ts), then prints a JSON line with its path.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.BENCH_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))));
  let running = false;
  let count = 0;
  let busy: Promise<void> = Promise.resolve();
  const interval = Number(process.env.BENCH_PROFILE_INTERVAL_US ?? 200);
  /** BENCH_PROFILE_KIND=heap: a sampling heap profile of allocations instead of a CPU profile. */
  const heap = process.env.BENCH_PROFILE_KIND?.startsWith('heap');
  const kind = process.env.BENCH_PROFILE_KIND;
  /**
   * Which sampled allocations stay in the profile once collected: by default all of them.
   * BENCH_PROFILE_KIND=heap-live: only what is still allocated when the profile stops (what holds
   * memory). BENCH_PROFILE_KIND=heap-promoted: also what a full collection freed, but not what a
   * scavenge did: what lived long enough to be promoted to the old generation (where garbage is dear).
   */
  const collectedByMajorGC = kind !== 'heap-live';
  const collectedByMinorGC = kind !== 'heap-live' && kind !== 'heap-promoted';
  process.on('SIGUSR2', () => {
    busy = busy.then(async () => {
      if (!running) {
        if (heap) {
          // Which collected allocations stay in the profile: see BENCH_PROFILE_KIND above.
          await post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: collectedByMajorGC, includeObjectsCollectedByMinorGC: collectedByMinorGC });
        } else {
          await post('Profiler.enable');
          await post('Profiler.setSamplingInterval', { interval });
          await post('Profiler.start');
        }
        running = true;
        return;
      }
      const { profile } = (await post(heap ? 'HeapProfiler.stopSampling' : 'Profiler.stop')) as { profile: unknown };
      running = false;
      const file = join(dir, `profile-${++count}.${heap ? 'heapprofile' : 'cpuprofile'}`);
      writeFileSync(file, JSON.stringify(profile));
      process.stdout.write(`${JSON.stringify({ msg: 'cpu profile written', file })}\n`);
    }).catch((error: unknown) => {
      process.stderr.write(`cpu profile: ${String(error)}\n`);
    });
  });
}
