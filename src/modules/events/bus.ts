// The event bus: live fan-out of committed events to this instance's subscribers. In process
// without Redis (other instances hear of positions through NOTIFY: relay.ts), or over a Redis
// channel shared by every instance (bus/redis-bus.ts). Made by bus/create-event-bus.ts.
import type { Audience } from './audience.js';
import type { EventPayload } from './outbox.js';

/** An event whose commit order is known: `position` is dense and increasing. */
export interface PositionedEvent {
  id: string;
  position: number;
  payload: EventPayload;
  /**
   * Who besides ADMINs sees it (audience.ts), carried on the bus (and in its Redis message) so a
   * stream filters without reading the database. Absent: ADMINs only.
   */
  audience?: Audience;
}

export interface EventBus {
  /** Whether a publish reaches every instance's subscribers (Redis), or only this instance's. */
  readonly shared: boolean;
  publish(event: PositionedEvent): void;
  /**
   * Resolves once everything this instance published has been handed to its own subscribers (a
   * burst enters them one event per turn of the event loop). With Redis, once it is sent.
   */
  flushed(): Promise<void>;
  /**
   * Every event published from now on, in the order this instance hears them. `bounded` (a
   * client's subscription): it reads the shared ring, and once it is more than the bus's buffer
   * behind its next `next()` fails with BusOverflow. Otherwise (the instance's own followers, such
   * as the response cache's invalidation, which always read) it has a queue of its own.
   */
  subscribe(options?: { bounded?: boolean }): AsyncIterableIterator<PositionedEvent>;
  /**
   * Every position up to `position` has committed (a relay's NOTIFY, or its look). A shared bus
   * that has not heard them on Redis within ANNOUNCED_GRACE_MS reads them from the database and
   * hands them to this instance's subscribers. In process, the relay follows instead (relay.ts).
   */
  announce(position: number): void;
  close(): Promise<void>;
}

/**
 * A subscriber that fell more than `buffer` events behind: the events it had not read yet are no
 * longer held for it. The event stream turns this into SUBSCRIBER_TOO_SLOW.
 */
export class BusOverflow extends Error {
  constructor(readonly buffer: number) {
    super(`more than ${buffer} events behind`);
    this.name = 'BusOverflow';
  }
}
