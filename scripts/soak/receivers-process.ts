// The soak's webhook receivers, in a process of their own (so they neither compete with the load
// generator nor distort its latencies). Each is a node:http server that verifies the Standard
// Webhooks signature, records every receipt by `webhook-id`, and answers as its kind says: at
// once, after a delay (the slow one), or 500 to the first attempt of about one event in ten (the
// flaky one, so retries are exercised). Driven by the parent over IPC (see receivers.ts); exits
// when the parent goes away.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { ReceiverCommand, ReceiverProgress, ReceiverReport, ReceiverSpec } from './receivers.js';

interface Receiver {
  spec: ReceiverSpec;
  webhook?: Webhook;
  requests: number;
  /** Receipts answered 2xx, by event id. */
  acked: Map<string, number>;
  /** Receipts by event id, whatever the answer (for the flaky one's first-attempt failures). */
  seen: Map<string, number>;
  failedOnPurpose: number;
  badSignatures: number;
  badBodies: number;
  samples: string[];
  expected?: Set<string>;
}

const receivers = new Map<number, Receiver>();

/** About one id in ten, the same one on every instance and every run (flaky receiver). */
function unlucky(id: string): boolean {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) | 0;
  return Math.abs(h) % 10 === 0;
}

function note(r: Receiver, problem: string): void {
  if (r.samples.length < 5) r.samples.push(problem);
}

function listen(spec: ReceiverSpec): Promise<number> {
  const r: Receiver = { spec, requests: 0, acked: new Map(), seen: new Map(), failedOnPurpose: 0, badSignatures: 0, badBodies: 0, samples: [] };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      r.requests++;
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(req.headers['webhook-id'] ?? '');
      const headers = {
        'webhook-id': id,
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      };
      try {
        if (!r.webhook) throw new Error('no secret yet');
        r.webhook.verify(body, headers);
      } catch (error) {
        r.badSignatures++;
        note(r, `bad signature on ${id}: ${(error as Error).message}`);
        res.writeHead(400).end();
        return;
      }
      let event: unknown;
      try {
        event = (JSON.parse(body) as { event?: unknown }).event;
      } catch {
        event = undefined;
      }
      if (!id.startsWith('evt_') || typeof event !== 'string' || !r.spec.events.includes(event)) {
        r.badBodies++;
        note(r, `unexpected delivery ${id}: ${body.slice(0, 120)}`);
      }
      const attempt = (r.seen.get(id) ?? 0) + 1;
      r.seen.set(id, attempt);
      const answer = () => {
        if (r.spec.kind === 'flaky' && attempt === 1 && unlucky(id)) {
          r.failedOnPurpose++;
          res.writeHead(500, { 'content-type': 'text/plain' }).end('flaky on purpose');
          return;
        }
        r.acked.set(id, (r.acked.get(id) ?? 0) + 1);
        res.writeHead(204).end();
      };
      if (r.spec.kind === 'slow') setTimeout(answer, r.spec.delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      receivers.set(port, r);
      resolve(port);
    });
  });
}

function missing(r: Receiver): string[] {
  return r.expected ? [...r.expected].filter((id) => !r.acked.has(id)) : [];
}

function progress(port: number, r: Receiver): ReceiverProgress {
  return { port, name: r.spec.name, requests: r.requests, distinct: r.acked.size, missing: missing(r).length };
}

function report(port: number, r: Receiver): ReceiverReport {
  let duplicates = 0;
  for (const n of r.acked.values()) duplicates += n - 1;
  const lost = missing(r);
  // Sabotage (SOAK_SABOTAGE=receiver): forget one expected delivery, to prove the check catches it.
  if (r.spec.forgetOne && r.expected?.size) {
    const victim = [...r.expected].find((id) => r.acked.has(id));
    if (victim) lost.push(victim);
  }
  return {
    ...progress(port, r),
    missing: lost.length,
    expected: r.expected?.size ?? 0,
    duplicates,
    failedOnPurpose: r.failedOnPurpose,
    badSignatures: r.badSignatures,
    badBodies: r.badBodies,
    missingSample: lost.slice(0, 5),
    samples: r.samples,
  };
}

process.on('message', (message: ReceiverCommand) => {
  const reply = (body: Record<string, unknown>) => process.send?.({ seq: message.seq, ...body });
  switch (message.type) {
    case 'listen':
      void listen(message.spec).then((port) => reply({ port }));
      return;
    case 'secret': {
      const r = receivers.get(message.port);
      if (r) r.webhook = new Webhook(message.secret);
      reply({});
      return;
    }
    case 'expect': {
      const r = receivers.get(message.port);
      if (r) r.expected = new Set(message.ids);
      reply({});
      return;
    }
    case 'progress':
      reply({ receivers: [...receivers].map(([port, r]) => progress(port, r)) });
      return;
    case 'report':
      reply({ receivers: [...receivers].map(([port, r]) => report(port, r)) });
      return;
  }
});
process.on('disconnect', () => process.exit(0));
