// Summarises a .cpuprofile (from BENCH_PROFILE=dir npm run bench): self time by package / area
// and the heaviest functions; or a .heapprofile (BENCH_PROFILE_KIND=heap…): sampled bytes by
// package / area and the allocation sites that allocated most, each with its caller.
// Usage: npx tsx bench/profile-summary.ts <file.cpuprofile|file.heapprofile> [top=25]
import { readFileSync } from 'node:fs';
import { sampledBytes, type HeapProfileNode } from './lib/heap-profile.js';
import { table } from './lib/report.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Which package or area a script belongs to. */
export function area(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1]!;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const src = /\/(src\/[^/]+(?:\/[^/]+)?)/.exec(url);
  if (src) return src[1]!.replace(/\.ts$/, '');
  return url;
}

function summarise(file: string, top: number): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = [...self].filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)').reduce((a, [, t]) => a + t, 0);
  const busy = total - idle;

  const areas = new Map<string, number>();
  const fns = new Map<string, number>();
  for (const [id, t] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    const a = area(url, functionName);
    areas.set(a, (areas.get(a) ?? 0) + t);
    const key = `${functionName || '(anonymous)'} ${a}${url ? `:${lineNumber + 1}` : ''}`;
    fns.set(key, (fns.get(key) ?? 0) + t);
  }
  const pct = (t: number) => `${((100 * t) / busy).toFixed(1)}%`;
  const rows = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, t]) => [k, `${(t / 1000).toFixed(0)} ms`, pct(t)]);
  return [
    `${file}: ${(total / 1e6).toFixed(1)} s profiled, ${(busy / 1e6).toFixed(1)} s busy (percentages are of busy time)`,
    '',
    table(['self time by package / area', 'ms', '%'], rows(areas), [false, true, true]),
    '',
    table(['heaviest functions (self time)', 'ms', '%'], rows(fns), [false, true, true]),
  ].join('\n');
}

/** A sampling heap profile: bytes allocated (as sampled) by area, and by allocation site and its caller. */
function summariseHeap(file: string, top: number): string {
  const { head } = JSON.parse(readFileSync(file, 'utf8')) as { head: HeapProfileNode };
  const areas = new Map<string, number>();
  const sites = new Map<string, number>();
  const name = ({ functionName, url, lineNumber }: ProfileNode['callFrame']) =>
    `${functionName || '(anonymous)'} ${area(url, functionName)}${url ? `:${lineNumber + 1}` : ''}`;
  const total = sampledBytes(head);
  const walk = (node: HeapProfileNode, caller: string) => {
    const here = name(node.callFrame);
    if (node.selfSize) {
      const a = area(node.callFrame.url, node.callFrame.functionName);
      areas.set(a, (areas.get(a) ?? 0) + node.selfSize);
      const site = `${here} ← ${caller}`;
      sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, here);
  };
  walk(head, '');
  const rows = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, bytes]) => [k, `${(bytes / 1024).toFixed(0)} kB`, `${((100 * bytes) / total).toFixed(1)}%`]);
  return [
    `${file}: ${(total / 1024 / 1024).toFixed(1)} MB sampled (divide by the requests of the run for bytes per request)`,
    '',
    table(['bytes by package / area', 'kB', '%'], rows(areas), [false, true, true]),
    '',
    table(['allocation sites (← their caller)', 'kB', '%'], rows(sites), [false, true, true]),
  ].join('\n');
}

const [file, top] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: tsx bench/profile-summary.ts <file.cpuprofile|file.heapprofile> [top]\n');
  process.exit(2);
}
const summary = file.endsWith('.heapprofile') ? summariseHeap : summarise;
process.stdout.write(`${summary(file, Number(top ?? 25))}\n`);
