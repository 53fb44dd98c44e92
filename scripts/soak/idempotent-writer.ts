// A client that retries every write with its Idempotency-Key, as the contract invites: it resends
// a write until it succeeds (after no response, a 503, or a 409 "still in progress"), sometimes
// sends two copies at once, and once it has a success sends it again, as a client that lost the
// response would. The soak then proves each key changed the database at most once (soak.ts), and
// here every replay is compared with the original: same status, same bytes, Idempotent-Replayed.

/** The request the writer hands to the traffic's sender (traffic.ts's Spec, narrowed). */
export interface WriteSpec {
  kind: 'idempotent write';
  method: 'POST';
  path: string;
  body?: unknown;
  token: string;
  headers: Record<string, string>;
  expect?(body: unknown): boolean;
  /** A copy of a key whose success has not been seen: a 409 "in progress" is its fair answer. */
  idempotentResend: boolean;
}

export type Send = (spec: WriteSpec) => Promise<{ status: number; body: unknown; text: string; headers: Headers }>;

/** One key the writer sent: what it asked, and whether a success came back. */
export interface KeyRecord {
  request: 'create' | 'publish';
  /** create: the lesson's title (unique per key); publish: the lesson published. */
  title?: string;
  lessonId?: string;
  succeeded: boolean;
}

export interface IdempotentWrites {
  keys: Map<string, KeyRecord>;
  /** Successes sent again and answered from the store. */
  replays: number;
  /** Replays that differed from the original (status, body or the Idempotent-Replayed header). */
  replayMismatches: string[];
}

interface WriterOptions {
  send: Send;
  token: string;
  unique(): string;
  running(): boolean;
  record: IdempotentWrites;
}

/** Longer than the service's lease on a key abandoned mid-request (a killed instance's). */
const GIVE_UP_MS = 90_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const ok = (status: number) => status >= 200 && status < 300;
type Answer = Awaited<ReturnType<Send>>;

/** Sends `spec` with `key` until a success (undefined when the run ends or it gives up). */
async function untilSuccess(o: WriterOptions, key: string, spec: Omit<WriteSpec, 'headers' | 'idempotentResend'>): Promise<Answer | undefined> {
  const started = Date.now();
  let sent = 0;
  for (;;) {
    // One time in three the first send goes out twice at once: either copy may be the one that runs.
    const copies = sent === 0 && Math.random() < 1 / 3 ? 2 : 1;
    const answers = await Promise.all(
      Array.from({ length: copies }, () => o.send({ ...spec, headers: { 'idempotency-key': key }, idempotentResend: copies > 1 || sent > 0 })),
    );
    sent += copies;
    const successes = answers.filter((a) => ok(a.status));
    if (successes.length === 2) compare(o.record, key, successes[0]!, successes[1]!, 'one ran');
    if (successes[0]) return successes[0];
    if (!o.running() || Date.now() - started > GIVE_UP_MS) return undefined;
    await sleep(250 + Math.random() * 500);
  }
}

const isReplay = (a: Answer) => a.headers.get('idempotent-replayed') === 'true';

/**
 * Two successes of one key must carry the same status and bytes. `replayed` is how many of them
 * must be marked Idempotent-Replayed: exactly one for two copies of a first send (one ran), and
 * at least the later one for a resend (the earlier success may itself be a replay, when the
 * response of the send that ran was lost to a killed instance or a restart).
 */
function compare(record: IdempotentWrites, key: string, a: Answer, b: Answer, expect: 'one ran' | 'b replayed'): void {
  record.replays++;
  const replayed = [a, b].filter(isReplay).length;
  const marked = expect === 'one ran' ? replayed === 1 : isReplay(b);
  if (a.status !== b.status || a.text !== b.text || !marked) {
    record.replayMismatches.push(`${key}: ${a.status} vs ${b.status}, ${replayed} marked Idempotent-Replayed, bodies ${a.text === b.text ? 'equal' : 'differ'}`);
  }
}

/** Sends a success's request once more, as after a lost response: the stored answer must come back. */
async function replay(o: WriterOptions, key: string, spec: Omit<WriteSpec, 'headers' | 'idempotentResend'>, original: Answer): Promise<void> {
  const again = await o.send({ ...spec, headers: { 'idempotency-key': key }, idempotentResend: false });
  // No answer, or a 503 while PostgreSQL restarts: the traffic's checks judge those.
  if (ok(again.status) || again.status === 409 || again.status === 422) compare(o.record, key, original, again, 'b replayed');
}

/** The loop: create a lesson, then publish it, each write under its own key. */
export async function idempotentWriter(o: WriterOptions): Promise<void> {
  while (o.running()) {
    const key = `soak-idem-${o.unique()}`;
    const title = `Idem ${key}`;
    const create = { kind: 'idempotent write', method: 'POST', path: '/api/v1/lessons', token: o.token, body: { title, body: 'Written once, however often it is sent.' } } as const;
    const created = await untilSuccess(o, key, create);
    o.record.keys.set(key, { request: 'create', title, succeeded: Boolean(created) });
    const lessonId = (created?.body as { id?: string } | undefined)?.id;
    if (created && lessonId && o.running()) {
      await replay(o, key, create, created);
      const publishKey = `${key}-publish`;
      const publish = { kind: 'idempotent write', method: 'POST', path: `/api/v1/lessons/publish?id=${lessonId}`, token: o.token } as const;
      const published = await untilSuccess(o, publishKey, publish);
      o.record.keys.set(publishKey, { request: 'publish', lessonId, succeeded: Boolean(published) });
      if (published && o.running()) await replay(o, publishKey, publish, published);
    }
    await sleep(200 + Math.random() * 400);
  }
}
