// A value attached to a short-lived object (a request, its context) for the plugins that meet it.

/**
 * Attaches values to objects under a private symbol: `get(owner)` is what `set(owner, value)` put
 * there. Not a WeakMap, on purpose. Node 20's V8 clears a WeakMap's entries only in a full
 * (mark-compact) collection: each request's entry kept its request, context and headers alive
 * through every scavenge until they were promoted to the old generation, to die there. With one
 * entry per request, the service's REST lookup spent 20 µs of ~110 µs in the collector and
 * promoted 4.6 kB a request (bare Yoga: 1.6 µs and 0.6 kB). A property dies with its owner.
 */
export function attachment<Owner extends object, Value>(description: string) {
  const key = Symbol(description);
  return {
    get: (owner: Owner): Value | undefined => (owner as Record<symbol, Value | undefined>)[key],
    set: (owner: Owner, value: Value): void => {
      (owner as Record<symbol, Value>)[key] = value;
    },
  };
}
