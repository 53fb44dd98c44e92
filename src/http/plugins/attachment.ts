// A value attached to a short-lived object (a request, its context) for the plugins that meet it.

/**
 * Attaches values to objects under a private symbol: `get(owner)` is what `set(owner, value)` put
 * there. Not a WeakMap, on purpose: on Node 20 a WeakMap's entry keeps its request alive until a
 * full collection, which costs more per request (docs/decisions.md). A property dies with its owner.
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
