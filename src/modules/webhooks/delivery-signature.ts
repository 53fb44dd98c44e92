// The Standard Webhooks signature of one delivery: `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`
// keyed with the base64 part of a `whsec_` secret. node:crypto instead of standardwebhooks' sign():
// that one hashes in JavaScript (fast-sha256), and the dispatcher signs every attempt. The tests
// verify what this makes with the standardwebhooks library, as a receiver would.
import { createHmac } from 'node:crypto';

const keys = new Map<string, Buffer>();

/** The HMAC key of a `whsec_…` secret (decoded once: endpoints are few, attempts many). */
function keyOf(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= 1_000) keys.clear();
    key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
    keys.set(secret, key);
  }
  return key;
}

/**
 * The `webhook-signature` header: one `v1,…` signature per secret, in the order given (the new
 * secret first during a rotation), separated by spaces as the spec allows; a receiver accepts the
 * delivery if any of them verifies with its secret.
 */
export function signatureHeader(secrets: readonly string[], msgId: string, timestampSeconds: number, body: string): string {
  const signed = `${msgId}.${timestampSeconds}.${body}`;
  return secrets.map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(signed).digest('base64')}`).join(' ');
}
