// Verifies a webhook delivery the way the server signs it: Standard Webhooks (the
// `standardwebhooks` reference library), i.e. `webhook-signature: v1,<base64 HMAC-SHA256 of
// "{webhook-id}.{webhook-timestamp}.{raw body}">` with the endpoint's `whsec_…` secret, and a
// timestamp within five minutes (the library's tolerance, against replays).
import { Webhook } from 'standardwebhooks';
import { WebhookVerificationError } from './errors.js';
import type { WebhookEvent } from './types.js';

/** Request headers as `fetch` (Headers) or `node:http` (IncomingHttpHeaders) give them, or a plain record. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const REQUIRED = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return headers.get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Checks a webhook's signature and returns its event: the payload's fields with the
 * `webhook-id` as `id` (de-duplicate on it: deliveries are at least once).
 *
 * @param payload the raw request body, exactly as received (not re-serialised JSON)
 * @param headers the request headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`)
 * @param secret the endpoint's `whsec_…` secret, from `webhooks.create`
 * @throws WebhookVerificationError when a header is missing, the signature does not match, or the timestamp is too old or too new
 */
export function verifyWebhook(payload: string | Uint8Array, headers: WebhookHeaders, secret: string): WebhookEvent {
  const wanted: Record<string, string> = {};
  for (const name of REQUIRED) {
    const value = header(headers, name);
    if (!value) throw new WebhookVerificationError(`Missing ${name} header`);
    wanted[name] = value;
  }
  // The server signs UTF-8 JSON, so decoding the bytes keeps them as they were.
  const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  let verified: unknown;
  try {
    verified = new Webhook(secret).verify(body, wanted);
  } catch (error) {
    throw new WebhookVerificationError(error instanceof Error ? error.message : 'Invalid webhook', { cause: error });
  }
  if (!verified || typeof verified !== 'object' || typeof (verified as { event?: unknown }).event !== 'string') {
    throw new WebhookVerificationError('Webhook payload is not an event');
  }
  return { id: wanted['webhook-id']!, ...(verified as object) } as WebhookEvent;
}
