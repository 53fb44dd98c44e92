// A webhook receiver for Learnstream, in plain Node (20+) with no dependencies: it checks each
// delivery's Standard Webhooks signature and prints every event that verifies.
//
//   WEBHOOK_SECRET=whsec_… node examples/webhook-receiver.mjs
//
// Environment:
//   WEBHOOK_SECRET   the endpoint's `whsec_…` secret (required). Several, comma-separated, are all
//                    accepted: while you switch to a rotated secret, give both.
//   RECEIVER_HOST    address to listen on [127.0.0.1]
//   RECEIVER_PORT    port to listen on [4100]; 0 picks a free one (the first line printed names it)
//   WEBHOOK_TOLERANCE_S  how far `webhook-timestamp` may be from this machine's clock [300]
//
// What it checks (https://www.standardwebhooks.com/):
//   - the headers `webhook-id`, `webhook-timestamp` (unix seconds) and `webhook-signature` are there;
//   - the timestamp is within the tolerance of now, so a captured delivery cannot be replayed later;
//   - `webhook-signature` holds one or more space-separated `v1,<base64>` signatures (two for 24 hours
//     after a secret rotation: the new secret's and the old one's), and at least one of them equals
//     the base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`, keyed with the base64-decoded part of
//     a secret after `whsec_`, compared in constant time. The body is the raw bytes as received:
//     parse the JSON only after verifying.
// A verified delivery gets 204 (any 2xx is success to the sender); anything else 401, which the
// sender records as a failed attempt and retries. Deliveries are at least once: the same
// `webhook-id` may arrive again, and is then printed as a duplicate.

/* global Buffer, console, process -- Node globals (the lint config knows only TypeScript's) */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const MAX_BODY_BYTES = 1024 * 1024;
const secrets = (process.env.WEBHOOK_SECRET ?? '').split(',').map((s) => s.trim()).filter(Boolean);
if (secrets.length === 0) {
  console.error("webhook-receiver: set WEBHOOK_SECRET to the endpoint's whsec_… secret");
  process.exit(2);
}
const keys = secrets.map((secret) => Buffer.from(secret.replace(/^whsec_/, ''), 'base64'));
const toleranceS = Number(process.env.WEBHOOK_TOLERANCE_S ?? 300);
const host = process.env.RECEIVER_HOST ?? '127.0.0.1';
const port = Number(process.env.RECEIVER_PORT ?? 4100);

/**
 * The event of a delivery whose signature verifies, or throws an Error saying why not.
 * `which` says which of the header's signatures matched (and which secret, when there are several).
 */
function verify(headers, body) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') {
    throw new Error('missing webhook-id, webhook-timestamp or webhook-signature');
  }
  if (!/^\d+$/.test(timestamp)) throw new Error(`webhook-timestamp is not unix seconds: ${timestamp}`);
  const skew = Math.floor(Date.now() / 1000) - Number(timestamp);
  if (Math.abs(skew) > toleranceS) throw new Error(`webhook-timestamp is ${skew} s away from now (tolerance ${toleranceS} s)`);

  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body]);
  const expected = keys.map((key) => createHmac('sha256', key).update(signed).digest());
  const given = signatures.split(' ').filter(Boolean);
  for (const [i, entry] of given.entries()) {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || !signature) continue; // other schemes (v1a…) are not ours
    const bytes = Buffer.from(signature, 'base64');
    const secretIndex = expected.findIndex((mac) => mac.length === bytes.length && timingSafeEqual(mac, bytes));
    if (secretIndex >= 0) {
      const secretNote = keys.length > 1 ? ` with secret ${secretIndex + 1} of ${keys.length}` : '';
      return { id, event: JSON.parse(body.toString('utf8')), which: `signature ${i + 1} of ${given.length}${secretNote}` };
    }
  }
  throw new Error(`no signature matches (${given.length} given)`);
}

const seen = new Set();

const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const chunks = [];
  let size = 0;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      res.writeHead(413).end();
      req.destroy();
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (res.headersSent) return;
    let verified;
    try {
      verified = verify(req.headers, Buffer.concat(chunks));
    } catch (error) {
      console.error(`refused ${req.headers['webhook-id'] ?? '(no id)'}: ${error.message}`);
      res.writeHead(401, { 'content-type': 'text/plain' }).end(`${error.message}\n`);
      return;
    }
    const { id, event, which } = verified;
    const duplicate = seen.has(id) ? ' (duplicate)' : '';
    seen.add(id);
    if (seen.size > 10_000) seen.delete(seen.values().next().value);
    console.log(`verified ${id} ${event.event}${duplicate} [${which}] ${JSON.stringify(event)}`);
    res.writeHead(204).end();
  });
});

server.listen(port, host, () => {
  const address = server.address();
  console.log(`webhook receiver listening on http://${host}:${address.port}/ (${keys.length} secret${keys.length === 1 ? '' : 's'})`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
