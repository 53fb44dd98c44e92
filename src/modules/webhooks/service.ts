// The webhook service: ADMIN management of endpoints and their deliveries. It only manages rows:
// the delivery worker (dispatch/loop.ts) sends what is PENDING and due, and records every attempt.
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Write } from '../events/write.js';
import { createAttemptNow } from './attempt-now.js';
import { createDeliveries } from './deliveries.js';
import { createEndpoints } from './endpoints.js';
import { createRecovery } from './recovery.js';
import { createSecretRotation } from './signing-secret.js';

export interface WebhookServiceDeps {
  db: Db;
  config: Config;
  write: Write;
  /**
   * Told when an ADMIN made an endpoint's deliveries due now (a test, a retry, a recovery, the
   * endpoint enabled again), so this instance's worker sends them at once, not at its next look.
   */
  onDeliveriesDue?: (endpointId: string) => void;
}

export function createWebhookService(deps: WebhookServiceDeps) {
  const attemptNow = createAttemptNow(deps);
  return {
    ...createEndpoints(deps),
    ...createSecretRotation(deps),
    ...createDeliveries({ ...deps, attemptNow }),
    ...createRecovery({ ...deps, attemptNow }),
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
