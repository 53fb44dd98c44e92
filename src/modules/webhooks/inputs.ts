// The webhook API's input schemas: REST routes parse their body and query with them, resolvers
// their arguments, so a service receives typed, validated values.
import { z } from 'zod';
import { firstMillisecond, isoInstant } from '../../dates.js';
import { pageQueryFields } from '../../http/page-query.js';
import { EVENT_TYPES } from '../events/outbox.js';
import { MAX_URL_LENGTH, urlFormProblem } from './url-guard.js';

const url = z
  .string()
  .trim()
  .max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`)
  .superRefine((value, ctx) => {
    const problem = urlFormProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe('Absolute http(s) URL without credentials; private and loopback targets are refused unless WEBHOOK_ALLOW_PRIVATE_TARGETS');
const events = z
  .array(z.enum(EVENT_TYPES, { error: `must be one of ${EVENT_TYPES.join(', ')}` }))
  .min(1, 'must name at least one event')
  .refine((names) => new Set(names).size === names.length, 'must not name an event twice')
  .describe('The events this endpoint receives');
const description = z.string().max(500, 'must be at most 500 characters').nullable();

export const createWebhookInput = z.strictObject({ url, events, description: description.optional() });
export type CreateWebhookInput = z.output<typeof createWebhookInput>;

export const updateWebhookInput = z
  .strictObject({
    url: url.optional(),
    events: events.optional(),
    description: description.optional(),
    enabled: z.boolean().optional().describe('true re-enables a disabled endpoint and clears disabledReason and failingSince'),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'give at least one of url, events, description, enabled' });
export type UpdateWebhookInput = z.output<typeof updateWebhookInput>;

export const recoverWebhookInput = z.strictObject({
  // The instants every date field takes (src/dates.ts): a date means its midnight UTC. One in the
  // future could match nothing, so it is surely a mistake.
  since: isoInstant
    .refine((since) => firstMillisecond(since) <= Date.now(), 'must not be in the future')
    .describe(
      'ISO 8601 date or UTC date-time, not in the future: FAILED deliveries created at or after it get one more attempt. ' +
        'One older than the delivery log retention (WEBHOOK_LOG_RETENTION_DAYS) means every FAILED delivery still kept',
    ),
});
export type RecoverWebhookInput = z.output<typeof recoverWebhookInput>;

/** A page of an endpoint's deliveries, as REST's query names it (checked by pageOfQuery). */
export const deliveriesQuery = z.object(pageQueryFields);
