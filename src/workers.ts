// The background work of an instance: the event relay, the webhook dispatcher, the page-view fold
// and the sign-in records' housekeeping. Every instance runs them; the database decides who does
// what (advisory lock, SKIP LOCKED).
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import type { EventBus } from './modules/events/bus.js';
import { createPageViewFold } from './modules/analytics/fold.js';
import { createSessionHousekeeping } from './modules/auth/housekeeping.js';
import { createRelay } from './modules/events/relay.js';
import { createDispatcher, type Dispatcher } from './modules/webhooks/dispatch/loop.js';
import type { Worker } from './worker.js';

export interface WorkerDeps {
  db: Database;
  bus: EventBus;
  config: Config;
  log: Logger;
  /** Where the workers report what they did (events positioned, webhook attempts). */
  metrics?: Pick<Metrics, 'eventsPositioned' | 'webhookAttempt'>;
}

/** Every worker of an instance, and the two the server wakes: the event relay and the webhook worker. */
export function createWorkers({ db, bus, config, log, metrics }: WorkerDeps): { all: Worker[]; relay: Worker; dispatcher: Dispatcher } {
  const dispatcher = createDispatcher({ db, config, log: log.child({ worker: 'webhooks' }), onAttempt: metrics?.webhookAttempt });
  const relay = createRelay({
    db: db.prisma,
    bus,
    log: log.child({ worker: 'relay' }),
    retentionDays: config.eventRetentionDays,
    notifications: db,
    onPositioned: metrics?.eventsPositioned,
    onDeliveriesDue: () => dispatcher.wake(),
  });
  const pageViewFold = createPageViewFold({ db: db.prisma, log: log.child({ worker: 'page-view-fold' }) });
  const sessionHousekeeping = createSessionHousekeeping({ db, config, log: log.child({ worker: 'sessions' }) });
  return { all: [relay, dispatcher, pageViewFold, sessionHousekeeping], relay, dispatcher };
}
