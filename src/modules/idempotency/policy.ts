// Which operations an Idempotency-Key treats specially: one table for both surfaces, by name (a
// REST route's operationId is its GraphQL Mutation field's name).

/**
 * `tokens`: never keyed (the answer holds tokens; sending it again must not replay them).
 * `secret`: the answer shows a secret once, so it is never stored; the key sent again is 409.
 */
export type KeyPolicy = 'tokens' | 'secret';

export const KEY_POLICIES: Readonly<Record<string, KeyPolicy>> = {
  login: 'tokens',
  register: 'tokens',
  refreshToken: 'tokens',
  logout: 'tokens',
  createApiKey: 'secret',
  createWebhook: 'secret',
  rotateWebhookSecret: 'secret',
};

export const keyPolicyOf = (operation: string): KeyPolicy | undefined => KEY_POLICIES[operation];
