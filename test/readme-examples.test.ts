// The shell examples of the README and of docs/api.md, docs/events.md and docs/webhooks.md, pasted
// in that order into one `bash -e` against a fresh `node dist/main.js`, as a reader would paste
// them against `npm start`: each must print what its page shows under it, stdout and stderr
// together as a terminal shows them (by shape: ids, tokens and times vary), and end its output with
// a newline. The convention is in ./support/shell-examples.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processPool } from './support/process.js';
import { outputDifferences, shapeDifferences, shellExamples } from './support/shell-examples.js';
import { freePort } from './support/wait.js';

const ROOT = resolve(import.meta.dirname, '..');
const PAGES = ['README.md', 'docs/api.md', 'docs/events.md', 'docs/webhooks.md'];
/** The service's address in the pages, as `npm start` serves it; replaced with the test server's. */
const PAGE_ADDRESS = 'localhost:4000';
/** The example webhook receiver's address in the pages (its default port); replaced with a free one. */
const PAGE_RECEIVER = '127.0.0.1:4100';
const SENTINEL = '__readme_example_done__';
const EXAMPLE_TIMEOUT_MS = 30_000;

const examples = PAGES.flatMap((page) => shellExamples(page, readFileSync(resolve(ROOT, page), 'utf8')));

/**
 * One bash for every example, so that variables carry over, in a process group of its own so that
 * what an example leaves running in the background ends with it.
 */
function shellSession(address: string, receiverPort: number) {
  const local = (text: string) => text.replaceAll(PAGE_ADDRESS, address).replaceAll(PAGE_RECEIVER, `127.0.0.1:${receiverPort}`);
  const bash: ChildProcess = spawn('bash', ['--noprofile', '--norc', '-e'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8', RECEIVER_PORT: String(receiverPort) },
    stdio: ['pipe', 'pipe', 'inherit'],
    detached: true,
  });
  let out = '';
  bash.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  bash.stdin!.write('exec 2>&1\n');

  /** Runs `code` and resolves with what it printed, and what it is shown printing, for this server. */
  async function run(code: string, expected: string): Promise<{ printed: string; shown: string }> {
    out = '';
    bash.stdin!.write(`${local(code)}\nprintf '%s\\n' ${SENTINEL}\n`);
    const deadline = Date.now() + EXAMPLE_TIMEOUT_MS;
    while (!out.endsWith(`${SENTINEL}\n`)) {
      if (bash.exitCode !== null) throw new Error(`bash exited (${bash.exitCode}):\n${out}`);
      if (Date.now() > deadline) throw new Error(`no end within ${EXAMPLE_TIMEOUT_MS} ms:\n${out}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return { printed: out.slice(0, -`${SENTINEL}\n`.length), shown: local(expected) };
  }

  function stop(): void {
    try {
      process.kill(-bash.pid!, 'SIGKILL');
    } catch {
      // The group has already ended.
    }
  }

  return { run, stop };
}

describe('the shell examples of the README and docs', () => {
  const pool = processPool();
  let session: ReturnType<typeof shellSession>;

  beforeAll(async () => {
    // Development, as `npm start` runs: the test mode's SSE keep-alive is faster than the page shows.
    const instance = await pool.start('readme', { NODE_ENV: 'development' });
    session = shellSession(new URL(instance.url).host, await freePort());
  });
  afterAll(async () => {
    session?.stop();
    await pool.cleanup();
  });

  it('finds the examples and what each prints', () => {
    expect(examples.length).toBeGreaterThan(10);
    expect(examples.filter((e) => e.expected !== '').length).toBeGreaterThan(10);
  });

  it.each(examples.map((e) => [e.where, e] as const))('%s prints what its page shows', async (_where, example) => {
    const { printed, shown } = await session.run(example.code, example.expected);
    if (printed !== '') expect(printed.endsWith('\n'), `the output ends with a newline:\n${printed}`).toBe(true);
    expect(outputDifferences(shown, printed)).toEqual([]);
  });
});

describe('comparing outputs by shape', () => {
  it('lets ids, tokens and times vary, not keys, types or literal values', () => {
    const shown = { id: 'usr_01…', name: 'Ada Lovelace', joined: '2026-11-23', at: '2026-11-23T10:51:48.326Z', n: 5, ok: true };
    expect(shapeDifferences(shown, { id: 'usr_01KX', name: 'Ada Lovelace', joined: '2027-01-02', at: '2027-01-02T00:00:00.000Z', n: 9, ok: true })).toEqual([]);
    expect(shapeDifferences(shown, { ...shown, name: 'Grace' })).toHaveLength(1);
    expect(shapeDifferences(shown, { ...shown, joined: '2026-11-23T00:00:00.000Z' })).toHaveLength(1);
    expect(shapeDifferences(shown, { ...shown, n: '5' })).toHaveLength(1);
    expect(shapeDifferences(shown, { ...shown, extra: 1 })).toHaveLength(1);
    expect(shapeDifferences({ items: [1, 2] }, { items: [1] })).toHaveLength(1);
  });

  it('compares JSON after a literal prefix, and other lines as patterns', () => {
    expect(outputDifferences('event: next\ndata: {"id":"evt_01…"}', 'event: next\ndata: {"id":"evt_01AB"}\n')).toEqual([]);
    expect(outputDifferences('data: {"id":"evt_01…"}', 'data: {"id":"evt_01AB","x":1}')).toHaveLength(1);
    expect(outputDifferences('verified evt_01… a [1 of 1] {"at":"2026-11-23T10:50:27.172Z"}', 'verified evt_01x a [1 of 1] {"at":"2027-01-01T00:00:00.000Z"}')).toEqual([]);
    expect(outputDifferences('verified evt_01… a [1 of 1] {"at":"…"}', 'verified evt_01x a [2 of 2] {"at":"x"}')).toHaveLength(1);
    expect(outputDifferences('{"items":[…],"nextCursor":"…"}', '{"items":[{"a":1}],"nextCursor":"abc"}')).toEqual([]);
    expect(outputDifferences('204', '401\n')).toHaveLength(1);
    expect(outputDifferences('', '')).toEqual([]);
    expect(outputDifferences('', 'something\n')).toHaveLength(1);
  });

  it('reads an example and the text fence after it', () => {
    const page = '```sh\necho hi\n```\n\n```text\nhi\n```\n\n```sh no-run\nnpm start\n```\n\n```sh\ntrue\n```\n';
    expect(shellExamples('p.md', page)).toEqual([
      { where: 'p.md:1', code: 'echo hi', expected: 'hi' },
      { where: 'p.md:13', code: 'true', expected: '' },
    ]);
  });
});
