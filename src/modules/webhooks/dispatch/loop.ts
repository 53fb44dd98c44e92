// The webhook delivery worker: claims due deliveries (claim.ts), makes an attempt for each
// (attempt.ts) and has the outcomes recorded (record.ts), within each endpoint's share
// (endpoint-shares.ts). Every instance runs one; the database decides who sends what.
import type { Config } from '../../../config.js';
import type { Database } from '../../../db/client.js';
import type { Logger } from '../../../logger.js';
import { createWebhookHousekeeping, type WebhookHousekeeping } from '../housekeeping.js';
import { createAttempt, INTERRUPTED, type Attempt, type Claimed, type Outcome } from './attempt.js';
import { claimDue, releaseLeases, type Claim } from './claim.js';
import { EndpointShares } from './endpoint-shares.js';
import { AttemptRecorder } from './record.js';

/**
 * Attempts in flight per process, all endpoints together. An attempt waiting on a receiver costs a
 * socket and a timer, so this is set well above what one fast receiver needs, to leave room for
 * several endpoints that hold their whole share while they time out.
 */
const MAX_IN_FLIGHT = 512;
/** Idle, how often to look for due deliveries that nobody told this process about. */
const IDLE_POLL_MS = 1_000;
/**
 * After a claim whose window was all taken by endpoints that used up their share, how soon to look
 * past them (a claim that skips their deliveries costs a scan over them: not after every claim).
 */
const LOOK_PAST_MS = 100;
/** A lease outlives the attempt's timeout by this much: time to record the outcome. */
const LEASE_MARGIN_MS = 10_000;

export interface DispatcherOptions {
  db: Database;
  config: Config;
  log: Logger;
  /** Told the outcome of every attempt made, once it is recorded (metrics). */
  onAttempt?(outcome: Outcome): void;
}

/** The webhook worker (a Worker of workers.ts). */
export interface Dispatcher {
  start(): void;
  /** Finishes or releases what is in flight, then resolves. */
  stop(): Promise<void>;
  /** Deliveries may have come due: look now instead of at the next poll. */
  wake(): void;
  /**
   * An ADMIN asked for attempts to this endpoint now (a test, a retry, a recovery): forget the
   * throttle this worker keeps for it (the service lifted the stored one) and look at once.
   */
  attemptNow(endpointId: string): void;
}

interface InFlight {
  delivery: Claimed;
  /** Ends the attempt: its timeout, or stop() after its grace period (INTERRUPTED). */
  abort: AbortController;
  /** Settles once the attempt is made and recorded (or recording failed). */
  done: Promise<void>;
}

/** The loop's pause between claims, and the wake-up that ends it early. */
class LoopPause {
  /** Ends the current pause (a slot freed, something came due, stop). */
  private endPause: (() => void) | undefined;
  /** A wake that came while the loop was not pausing (claiming): its next pause is skipped. */
  private wokenMeanwhile = false;

  wake(): void {
    if (this.endPause) this.endPause();
    else this.wokenMeanwhile = true;
  }

  /** Resolves after `ms` (never, without it) or at the next wake(). */
  pause(ms?: number): Promise<void> {
    if (this.wokenMeanwhile) {
      this.wokenMeanwhile = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        if (this.endPause === done) this.endPause = undefined;
        resolve();
      };
      if (ms !== undefined) timer = setTimeout(done, ms);
      this.endPause = done;
    });
  }
}

/**
 * Idle, the worker looks for due deliveries once a second (IDLE_POLL_MS). It looks at once when
 * told (wake(): the relay made deliveries due), when a retry or throttle it knows of comes due, or
 * when attempts finish and free slots; busy, it claims again as soon as a claim filled every free
 * slot. Housekeeping runs at most once a minute (housekeeping.ts).
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  return new WebhookDispatcher(options);
}

class WebhookDispatcher implements Dispatcher {
  private readonly db: Database;
  private readonly log: Logger;
  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  private readonly attempt: Attempt;
  private readonly housekeeping: WebhookHousekeeping;
  private readonly shares = new EndpointShares();
  private readonly recorder: AttemptRecorder;
  private readonly loopPause = new LoopPause();
  private readonly inFlight = new Map<string, InFlight>();
  private housekeepingRun: Promise<void> | undefined;
  private stopping = false;
  private loopDone: Promise<void> = Promise.resolve();
  /** Every slot was taken when the loop last looked: wake it once half of them are free. */
  private waitingForSlot = false;
  /** The soonest retry or end of a throttle this process knows of (ms since epoch). */
  private soonestDue = Infinity;

  constructor({ db, config, log, onAttempt }: DispatcherOptions) {
    this.db = db;
    this.log = log;
    this.timeoutMs = config.webhook.timeoutMs;
    this.leaseMs = config.webhook.timeoutMs + LEASE_MARGIN_MS;
    this.attempt = createAttempt(config.webhook);
    this.housekeeping = createWebhookHousekeeping({ db, config, log });
    this.recorder = new AttemptRecorder({
      db,
      log,
      disableAfterMs: config.webhook.disableAfterMs,
      onRecorded: (result, recordedAt) => {
        // Due again: look for it then rather than at the next idle poll.
        if (result.outcome === 'RETRY' && result.delayMs !== null) this.dueAt(recordedAt + result.delayMs);
        onAttempt?.(result.outcome);
      },
    });
  }

  start(): void {
    this.stopping = false;
    this.loopDone = this.loop().catch((error: unknown) => this.log.error({ err: error }, 'webhook dispatcher stopped unexpectedly'));
  }

  wake(): void {
    this.loopPause.wake();
  }

  attemptNow(endpointId: string): void {
    this.shares.liftThrottle(endpointId);
    this.loopPause.wake();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.loopPause.wake();
    await this.loopDone;
    // In flight: each attempt ends within its timeout; give them that, then interrupt the rest.
    const all = () => Promise.all([...this.inFlight.values()].map((f) => f.done));
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), this.timeoutMs + 1_000)));
    const late = (await Promise.race([all(), graceOver])) === 'late';
    clearTimeout(timer);
    if (late) {
      const leftovers = [...this.inFlight.entries()];
      for (const [, f] of leftovers) f.abort.abort(INTERRUPTED);
      await Promise.race([all(), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
      // Whatever could still not be recorded: drop our leases so another instance takes over now.
      const stuck = leftovers.filter(([id]) => this.inFlight.has(id)).map(([, f]) => f.delivery);
      if (stuck.length) {
        await releaseLeases(this.db, stuck).catch((error: unknown) => this.log.warn({ err: error }, 'releasing webhook leases failed'));
      }
    }
    await this.recorder.idle();
    await this.housekeepingRun;
  }

  private dueAt(at: number): void {
    if (at < this.soonestDue) this.soonestDue = at;
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      if (!this.housekeepingRun) {
        this.housekeepingRun = this.housekeeping
          .runIfDue()
          .catch((error: unknown) => this.log.warn({ err: error }, 'webhook housekeeping failed'))
          .finally(() => (this.housekeepingRun = undefined));
      }
      const free = MAX_IN_FLIGHT - this.inFlight.size;
      if (free <= 0) {
        this.waitingForSlot = true;
        await this.loopPause.pause();
        this.waitingForSlot = false;
        continue;
      }
      let claim: Claim;
      try {
        claim = await claimDue(this.db, this.shares, free, this.leaseMs);
      } catch (error) {
        this.log.warn({ err: error }, 'claiming webhook deliveries failed');
        await this.loopPause.pause(IDLE_POLL_MS);
        continue;
      }
      for (const delivery of claim.deliveries) this.launch(delivery);
      // A full batch: there may be more due right now; otherwise rest until told or due.
      if (claim.deliveries.length < free && !this.stopping) {
        const ms = this.restMs(claim);
        if (ms > 0) await this.loopPause.pause(ms);
      }
    }
  }

  private launch(delivery: Claimed): void {
    const abort = new AbortController();
    const state = this.shares.started(delivery.endpointId);
    const done = this.attempt(delivery, abort)
      .then((result) => {
        const throttledUntil = this.shares.learn(result);
        if (throttledUntil !== undefined) this.dueAt(throttledUntil);
        return this.recorder.recordSoon(result);
      })
      .catch((error: unknown) => this.log.error({ err: error, deliveryId: delivery.id }, 'webhook attempt crashed'))
      .finally(() => {
        this.inFlight.delete(delivery.id);
        // Claim in batches, not one slot at a time: wake the loop once half the slots are free,
        // of all of them or of an endpoint that had more due than its share.
        if (this.shares.finished(delivery.endpointId, state)) this.loopPause.wake();
        else if (this.waitingForSlot && this.inFlight.size <= MAX_IN_FLIGHT / 2) this.loopPause.wake();
      });
    this.inFlight.set(delivery.id, { delivery, abort, done });
  }

  /** How long to rest after a claim that did not fill every free slot. */
  private restMs(claim: Claim): number {
    const now = Date.now();
    // The window was full and some endpoint took its whole share: other endpoints' deliveries may
    // wait behind theirs. Look past them soon (they are now excluded), not after every claim.
    const first = claim.deliveries[0];
    const windowFull = first !== undefined && first.seen >= claim.window && this.shares.anyFilled();
    let ms = windowFull ? LOOK_PAST_MS : IDLE_POLL_MS;
    if (this.soonestDue <= now) this.soonestDue = Infinity;
    else ms = Math.min(ms, this.soonestDue - now);
    return ms;
  }
}
