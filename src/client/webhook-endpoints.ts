// The client's calls for webhook endpoints and their deliveries (ADMIN): `client.webhooks`.
import { segment as path } from './paginate.js';
import type { CallOptions, Transport } from './transport.js';
import type {
  CreatedWebhook,
  CreateWebhookInput,
  PageOptions,
  RestResponse,
  UpdateWebhookInput,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryPage,
} from './types.js';

/** `client.webhooks`: registering endpoints, their deliveries, retries and secrets. */
export function webhookEndpointCalls(transport: Transport) {
  return {
    /** Registers an endpoint; the result holds its signing `secret`, shown only here. */
    create: (input: CreateWebhookInput, options?: CallOptions): Promise<CreatedWebhook> =>
      transport.rest('POST', '/api/v1/webhooks', { ...options, body: input }),
    /** Every endpoint, newest first (without secrets). */
    list: async (options?: CallOptions): Promise<Webhook[]> =>
      (await transport.rest<RestResponse<'listWebhooks', 200>>('GET', '/api/v1/webhooks', options)).items,
    get: (id: string, options?: CallOptions): Promise<Webhook> => transport.rest('GET', `/api/v1/webhooks/${path(id)}`, options),
    /** Changes url, events, description or enabled (re-enabling clears disabledReason and failingSince). */
    update: (id: string, input: UpdateWebhookInput, options?: CallOptions): Promise<Webhook> =>
      transport.rest('PATCH', `/api/v1/webhooks/${path(id)}`, { ...options, body: input }),
    /** Deletes an endpoint with its deliveries. */
    delete: async (id: string, options?: CallOptions): Promise<void> => {
      await transport.rest('DELETE', `/api/v1/webhooks/${path(id)}`, options);
    },
    /** Queues a signed `webhook.test` ping to this endpoint only; resolves with the delivery. */
    test: (id: string, options?: CallOptions): Promise<WebhookDelivery> =>
      transport.rest('POST', `/api/v1/webhooks/${path(id)}/test`, options),
    /** One page of an endpoint's deliveries, newest first, each with its attempts. */
    deliveries: (id: string, page: PageOptions = {}, options?: CallOptions): Promise<WebhookDeliveryPage> =>
      transport.rest('GET', `/api/v1/webhooks/${path(id)}/deliveries`, { ...options, query: { limit: page.limit, cursor: page.cursor } }),
    /** One more attempt of a delivery now, whatever its status. */
    retryDelivery: (id: string, deliveryId: string, options?: CallOptions): Promise<WebhookDelivery> =>
      transport.rest('POST', `/api/v1/webhooks/${path(id)}/deliveries/${path(deliveryId)}/retry`, options),
    /**
     * One more attempt now for every FAILED delivery of the endpoint created at or after `since`
     * (an ISO 8601 date or UTC date-time, or a Date; not in the future). Resolves with how many.
     */
    recover: async (id: string, since: string | Date, options?: CallOptions): Promise<number> => {
      const body = { since: since instanceof Date ? since.toISOString() : since };
      return (await transport.rest<RestResponse<'recoverWebhook', 202>>('POST', `/api/v1/webhooks/${path(id)}/recover`, { ...options, body })).count;
    },
    /**
     * A new signing secret (`whsec_…`), shown only here. For 24 hours deliveries carry a signature
     * with the new and one with the previous secret, so receivers can switch without a gap.
     */
    rotateSecret: async (id: string, options?: CallOptions): Promise<string> =>
      (await transport.rest<RestResponse<'rotateWebhookSecret', 200>>('POST', `/api/v1/webhooks/${path(id)}/rotate-secret`, options)).secret,
  };
}

export type WebhookEndpointCalls = ReturnType<typeof webhookEndpointCalls>;
