// What every background worker of an instance is (src/workers.ts starts them).

export interface Worker {
  start(): void;
  /** Finishes or releases what is in flight, then resolves. */
  stop(): Promise<void>;
  /** Something for it to do may have arrived: look now instead of at the next poll. */
  wake?(): void;
}
