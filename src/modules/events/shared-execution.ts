// `subscribe` for every subscription transport: the selection set runs once per event for all the
// subscribers with the same operation (the live events reach them as the same object), not once per
// subscriber. It also counts a caller's open subscriptions on every transport together.
import {
  createSourceEventStream,
  execute,
  getOperationAST,
  Kind,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { createGraphQLError, isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { RequestContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { appGraphQLError } from '../../graphql/errors.js';
import { SubscriberTooSlow } from './service.js';

/** Subscription fields whose result can be shared, and the fields of their type that can. */
const SHAREABLE: Record<string, ReadonlySet<string>> = {
  events: new Set(['id', 'event', 'timestamp', 'lessonId', 'userId', 'path', '__typename']),
};

type Fragments = Map<string, FragmentDefinitionNode>;

/** Whether every field selected (through fragments too) is in `allowed`. */
function selectsOnly(set: SelectionSetNode, allowed: ReadonlySet<string>, fragments: Fragments, seen = new Set<string>()): boolean {
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) {
      if (!allowed.has(s.name.value) || s.selectionSet) return false;
    } else if (s.kind === Kind.INLINE_FRAGMENT) {
      if (!selectsOnly(s.selectionSet, allowed, fragments, seen)) return false;
    } else {
      const name = s.name.value;
      if (seen.has(name)) continue;
      seen.add(name);
      const fragment = fragments.get(name);
      if (!fragment || !selectsOnly(fragment.selectionSet, allowed, fragments, seen)) return false;
    }
  }
  return true;
}

function isShareable(document: DocumentNode, operationName: string | null | undefined): boolean {
  const operation = getOperationAST(document, operationName);
  if (operation?.operation !== 'subscription') return false;
  const fragments: Fragments = new Map();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  return operation.selectionSet.selections.every((s) => {
    if (s.kind !== Kind.FIELD) return false;
    const allowed = SHAREABLE[s.name.value];
    return !!allowed && !!s.selectionSet && selectsOnly(s.selectionSet, allowed, fragments);
  });
}

/** SUBSCRIBER_TOO_SLOW as the subscriber sees it: the code, and the id to resume `after`. */
function tooSlowError(error: SubscriberTooSlow) {
  return createGraphQLError(error.message, { extensions: { code: error.code, lastEventId: error.lastEventId, buffer: error.buffer } });
}

type Result = ExecutionResult | Promise<ExecutionResult>;

/** One more subscription than a caller may hold. */
const tooManySubscriptions = (max: number) =>
  new AppError(
    'TOO_MANY_SUBSCRIPTIONS',
    `Too many open subscriptions: a caller may hold at most ${max} at once on this server. Close one (unsubscribe) before opening another`,
  );

/**
 * Open subscriptions by user, at most `max` each (per instance: each instance counts its own).
 * `acquire` resolves a release (call it when the subscription ends; more calls do nothing), or
 * undefined when the caller already holds `max`. An operation without a caller takes no slot: its
 * resolver refuses it (UNAUTHENTICATED) before any stream opens.
 */
function subscriptionSlots(max: number) {
  const open = new Map<string, number>();
  const none = () => {};
  return async (context: RequestContext): Promise<(() => void) | undefined> => {
    // A failure to resolve the caller (the database) is the resolver's to report, as its error.
    const caller = typeof context.caller === 'function' ? await context.caller().catch(() => null) : null;
    if (!caller) return none;
    const { userId } = caller;
    const count = open.get(userId) ?? 0;
    if (count >= max) return undefined;
    open.set(userId, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (open.get(userId) ?? 1) - 1;
      if (left > 0) open.set(userId, left);
      else open.delete(userId);
    };
  };
}

/**
 * Per subscriber it still runs the subscribe resolver (authentication, `types`, `after`) and, on
 * every event, the caller check. Only operations selecting fields that never read the context are
 * shared (SHAREABLE); any other, and any result with errors, runs per subscriber as graphql-js's
 * `subscribe` does. A stream ending with SubscriberTooSlow ends with one SUBSCRIBER_TOO_SLOW result,
 * then completes. One more subscription than `perCaller` is refused with TOO_MANY_SUBSCRIPTIONS
 * before its stream opens; the slot is given back when the stream ends or its connection closes.
 */
export function createSharedSubscribe({ perCaller = Infinity }: { perCaller?: number } = {}) {
  const slots = subscriptionSlots(perCaller);
  const shareable = new WeakMap<DocumentNode, Map<string, boolean>>();
  /** event → document → operation name and variables → the result. Freed with the event. */
  const results = new WeakMap<object, WeakMap<DocumentNode, Map<string, Result>>>();

  function canShare(document: DocumentNode, operationName: string | null | undefined): boolean {
    let byName = shareable.get(document);
    if (!byName) shareable.set(document, (byName = new Map()));
    let ok = byName.get(operationName ?? '');
    if (ok === undefined) byName.set(operationName ?? '', (ok = isShareable(document, operationName)));
    return ok;
  }

  function sharedResult(args: ExecutionArgs, event: object, key: string): Result {
    let byDocument = results.get(event);
    if (!byDocument) results.set(event, (byDocument = new WeakMap()));
    let byKey = byDocument.get(args.document);
    if (!byKey) byDocument.set(args.document, (byKey = new Map()));
    let result = byKey.get(key);
    if (!result) byKey.set(key, (result = execute({ ...args, rootValue: event })));
    return result;
  }

  return async function subscribe(args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
    const context = args.contextValue as RequestContext;
    const release = await slots(context);
    if (!release) return { errors: [appGraphQLError(tooManySubscriptions(perCaller))] };
    let stream: Awaited<ReturnType<typeof createSourceEventStream>>;
    try {
      stream = await createSourceEventStream(args);
    } catch (error) {
      release();
      throw error;
    }
    if (!isAsyncIterable(stream)) {
      release();
      return stream;
    }
    const own = (event: unknown) => execute({ ...args, rootValue: event });
    const share = canShare(args.document, args.operationName);
    const key = share ? `${args.operationName ?? ''}\n${JSON.stringify(args.variableValues ?? null)}` : '';
    const iterator = stream[Symbol.asyncIterator]();
    const map = async (event: unknown): Promise<ExecutionResult> => {
      if (!share || typeof event !== 'object' || event === null || (await context.caller()) === null) return own(event);
      const result = await sharedResult(args, event, key);
      // An error is reported per subscriber, as if executed alone.
      return result.errors ? own(event) : result;
    };
    // Like graphql-js's mapAsyncIterator: `return()` reaches the source at once, even while a
    // `next()` is pending (an async generator would wait for the next event).
    let finished = false;
    const mapped: AsyncIterableIterator<ExecutionResult> = {
      async next() {
        if (finished) return { value: undefined, done: true };
        let next: IteratorResult<unknown>;
        try {
          next = await iterator.next();
        } catch (error) {
          release();
          // A stream that ends for a reason the subscriber must hear (it fell too far behind)
          // ends with a result carrying the error, then completes, the same on every transport:
          // a source that throws would make Yoga's SSE cut the response without a word.
          if (!(error instanceof SubscriberTooSlow)) throw error;
          finished = true;
          return { value: { errors: [tooSlowError(error)] }, done: false };
        }
        if (next.done) {
          release();
          return { value: undefined, done: true };
        }
        try {
          return { value: await map(next.value), done: false };
        } catch (error) {
          release();
          try {
            await iterator.return?.();
          } catch {
            // Keep the original error.
          }
          throw error;
        }
      },
      async return() {
        finished = true;
        release();
        await iterator.return?.();
        return { value: undefined, done: true };
      },
      async throw(error: unknown) {
        release();
        if (iterator.throw) await iterator.throw(error);
        else await iterator.return?.();
        throw error;
      },
      [Symbol.asyncIterator]() {
        return mapped;
      },
    };
    return mapped;
  };
}

/**
 * The envelop plugin: every subscription, over SSE or WebSocket, uses the shared `subscribe`, and
 * counts against its caller's SUBSCRIPTIONS_PER_CALLER (`perCaller`).
 */
export function useSharedSubscriptions(options: { perCaller?: number } = {}): Plugin {
  const subscribe = createSharedSubscribe(options);
  return {
    onSubscribe({ setSubscribeFn }) {
      setSubscribeFn(subscribe);
    },
  };
}
