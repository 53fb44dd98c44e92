// What a subscriber of Subscription.events receives, as the graphql-sse and graphql-ws clients
// hand it over: the events, the errors, and whether the server ended the operation.

export interface GqlError {
  message: string;
  extensions?: { code?: string };
  /** When the WebSocket itself was closed: its close code. */
  closeCode?: number;
}

export interface Received<E> {
  events: E[];
  errors: GqlError[];
  /** Set when the server ended the operation (complete or error). */
  ended: boolean;
}

export interface Sink {
  next(value: unknown): void;
  error(error: unknown): void;
  complete(): void;
}

/** A sink for either client's `subscribe` that records into `into`. */
export function eventsSink<E>(into: Received<E>): Sink {
  return {
    next(value) {
      const result = value as { data?: { events?: E } | null; errors?: GqlError[] };
      if (result.errors) into.errors.push(...result.errors);
      if (result.data?.events) into.events.push(result.data.events);
    },
    error(error) {
      if (Array.isArray(error)) into.errors.push(...(error as GqlError[]));
      else if (error instanceof Error) into.errors.push({ message: error.message });
      else {
        // graphql-ws hands over the CloseEvent of a socket the server closed.
        const { reason, code } = error as { reason?: string; code?: number };
        into.errors.push({ message: String(reason ?? error), ...(typeof code === 'number' ? { closeCode: code } : {}) });
      }
      into.ended = true;
    },
    complete() {
      into.ended = true;
    },
  };
}
