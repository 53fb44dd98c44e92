// The webhook walkthrough of docs/webhooks.md, run for real: examples/webhook-receiver.mjs as a
// process of its own, an endpoint pointing at it, test events from the delivery worker. The receiver
// prints each event it verified, refuses a tampered body, a stale timestamp and a wrong secret, and
// keeps verifying through a secret rotation (two signatures in `webhook-signature`).
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { describe, expect } from 'vitest';
import { serverTest } from './support/fixtures.js';
import type { Client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { freePort, waitFor } from './support/wait.js';

const RECEIVER_SCRIPT = resolve(import.meta.dirname, '../examples/webhook-receiver.mjs');

interface ReceiverProcess {
  /** Where it listens, as its first line says. */
  url: string;
  stdout(): string;
  stderr(): string;
  stop(): Promise<void>;
}

interface Delivery {
  id: string;
  eventId: string;
  event: string;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  attempts: { statusCode: number | null; error: string | null }[];
}

const receivers = new Set<ChildProcess>();

/** Runs the example receiver as docs/webhooks.md does (`WEBHOOK_SECRET=… node examples/webhook-receiver.mjs`). */
async function startReceiver(secrets: string[], port: number): Promise<ReceiverProcess> {
  const proc = spawn(process.execPath, [RECEIVER_SCRIPT], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', WEBHOOK_SECRET: secrets.join(','), RECEIVER_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  receivers.add(proc);
  let out = '';
  let err = '';
  proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const closed = new Promise<void>((done) => proc.once('close', () => done()));
  const url = await waitFor('the receiver to listen', () => {
    if (proc.exitCode !== null) throw new Error(`the receiver exited (${proc.exitCode}): ${out}${err}`);
    return /listening on (http:\/\/\S+)/.exec(out)?.[1];
  });
  return {
    url,
    stdout: () => out,
    stderr: () => err,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await closed;
      receivers.delete(proc);
    },
  };
}

/** Posts straight to the receiver, as a forger (or a replay) would. */
async function postToReceiver(url: string, body: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  await res.arrayBuffer();
  return res.status;
}

const it = serverTest({ env: NO_RATE_LIMITS });

describe('the README webhook walkthrough with examples/webhook-receiver.mjs', () => {
  // The fixture's client and ADMIN token, for the helpers below.
  let api: Client;
  let token: string;
  it.beforeAll(({ api: itsClient, ada }) => {
    [api, token] = [itsClient, ada];
  });

  it.afterAll(() => {
    for (const proc of receivers) if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  });

  /** POST …/test, then waits for that delivery to end and returns it. */
  async function sendTest(hookId: string): Promise<Delivery> {
    const queued = await api.post(`/api/v1/webhooks/${hookId}/test`, undefined, { token });
    expect(queued.status).toBe(202);
    const { id } = queued.body as Delivery;
    return waitFor(`delivery ${id} to succeed`, async () => {
      const page = await api.get(`/api/v1/webhooks/${hookId}/deliveries`, { token });
      const delivery = (page.body.items as Delivery[]).find((d) => d.id === id);
      if (delivery?.status === 'FAILED') throw new Error(`delivery failed: ${JSON.stringify(delivery)}`);
      return delivery?.status === 'SUCCEEDED' ? delivery : undefined;
    }, 30_000);
  }

  /** Creates an endpoint for a receiver on `port` of this machine and returns its id and secret. */
  async function createEndpoint(port: number): Promise<{ id: string; secret: string }> {
    const created = await api.post(
      '/api/v1/webhooks',
      { url: `http://127.0.0.1:${port}/webhooks`, events: ['lesson.published', 'lesson.updated'], description: 'my laptop' },
      { token },
    );
    expect(created.status).toBe(201);
    return created.body as { id: string; secret: string };
  }

  it('prints the test event it verified, and the delivery log shows it SUCCEEDED', async () => {
    const port = await freePort();
    const hook = await createEndpoint(port);
    const receiver = await startReceiver([hook.secret], port);
    try {
      expect(receiver.url).toBe(`http://127.0.0.1:${port}/`);
      const delivery = await sendTest(hook.id);
      expect(delivery.event).toBe('webhook.test');
      expect(delivery.attempts.at(-1)).toMatchObject({ statusCode: 204, error: null });
      const line = await waitFor('the verified line', () =>
        receiver.stdout().split('\n').find((l) => l.startsWith(`verified ${delivery.eventId} webhook.test `)));
      expect(line).toContain('[signature 1 of 1]');
      const printed = JSON.parse(line.slice(line.indexOf('{'))) as Record<string, unknown>;
      expect(Object.keys(printed)).toEqual(['event', 'timestamp']);
      expect(printed.event).toBe('webhook.test');
      expect(receiver.stderr()).toBe('');
    } finally {
      await receiver.stop();
    }
  });

  it('refuses a tampered body, a stale timestamp, a wrong secret and missing headers', async () => {
    const port = await freePort();
    const hook = await createEndpoint(port);
    const receiver = await startReceiver([hook.secret], port);
    try {
      const signer = new Webhook(hook.secret);
      const body = '{"event":"lesson.published","timestamp":"2026-11-23T10:00:00.000Z","lessonId":"les_1"}';
      const headersFor = (id: string, at: Date, payload: string, by = signer) => ({
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': by.sign(id, at, payload),
      });

      // Signed by another Standard Webhooks implementation: verified.
      expect(await postToReceiver(receiver.url, body, headersFor('evt_genuine', new Date(), body))).toBe(204);
      // The same signature over a changed body: refused.
      const tampered = body.replace('les_1', 'les_2');
      expect(await postToReceiver(receiver.url, tampered, headersFor('evt_tampered', new Date(), body))).toBe(401);
      // A genuine signature, ten minutes old (a replay): refused.
      const stale = new Date(Date.now() - 10 * 60_000);
      expect(await postToReceiver(receiver.url, body, headersFor('evt_stale', stale, body))).toBe(401);
      // Signed with a secret that is not the endpoint's: refused.
      const other = new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`);
      expect(await postToReceiver(receiver.url, body, headersFor('evt_forged', new Date(), body, other))).toBe(401);
      // No signature headers at all: refused.
      expect(await postToReceiver(receiver.url, body, {})).toBe(401);

      await waitFor('five verdicts', () => receiver.stdout().includes('evt_genuine') && receiver.stderr().split('\n').length > 4);
      const verified = receiver.stdout().split('\n').filter((l) => l.startsWith('verified '));
      expect(verified).toHaveLength(1);
      expect(verified[0]).toMatch(/^verified evt_genuine lesson\.published \[signature 1 of 1\] \{"event":"lesson\.published",/);
      const refused = receiver.stderr().split('\n').filter(Boolean);
      expect(refused).toEqual([
        expect.stringMatching(/^refused evt_tampered: no signature matches/),
        expect.stringMatching(/^refused evt_stale: webhook-timestamp is \d+ s away from now/),
        expect.stringMatching(/^refused evt_forged: no signature matches/),
        expect.stringMatching(/^refused \(no id\): missing webhook-id/),
      ]);
    } finally {
      await receiver.stop();
    }
  });

  it('keeps verifying through a secret rotation: the old secret matches the second signature, the new one the first', async () => {
    const port = await freePort();
    const hook = await createEndpoint(port);
    const oldReceiver = await startReceiver([hook.secret], port);
    let rotated: string;
    try {
      const reply = await api.post(`/api/v1/webhooks/${hook.id}/rotate-secret`, undefined, { token });
      expect(reply.status).toBe(200);
      rotated = (reply.body as { secret: string }).secret;
      expect(rotated).not.toBe(hook.secret);

      const delivery = await sendTest(hook.id);
      const line = await waitFor('the verified line', () =>
        oldReceiver.stdout().split('\n').find((l) => l.startsWith(`verified ${delivery.eventId} `)));
      expect(line).toContain('[signature 2 of 2]');
    } finally {
      await oldReceiver.stop();
    }

    // Switched to the new secret (the walkthrough restarts the receiver with it).
    const newReceiver = await startReceiver([rotated], port);
    try {
      const delivery = await sendTest(hook.id);
      const line = await waitFor('the verified line', () =>
        newReceiver.stdout().split('\n').find((l) => l.startsWith(`verified ${delivery.eventId} `)));
      expect(line).toContain('[signature 1 of 2]');
    } finally {
      await newReceiver.stop();
    }

    // Given both secrets (comma-separated), it says which one matched.
    const bothReceiver = await startReceiver([hook.secret, rotated], port);
    try {
      const delivery = await sendTest(hook.id);
      const line = await waitFor('the verified line', () =>
        bothReceiver.stdout().split('\n').find((l) => l.startsWith(`verified ${delivery.eventId} `)));
      expect(line).toContain('[signature 1 of 2 with secret 2 of 2]');
    } finally {
      await bothReceiver.stop();
    }
  });
});
