// Idempotency-Key on GraphQL mutations: a POST on the GraphQL path whose operation is a mutation,
// sent by a signed-in caller with the header, is keyed in the store REST uses
// (src/modules/idempotency/store.ts): its first run's response is stored, the same request again
// gets it back byte for byte with `Idempotent-Replayed: true`, another request with the key is
// 422, one while the first runs 409. Only a 2xx result without `errors` is stored: a mutation
// that failed (wholly or in part) may be retried with its key. A query with the header just runs.
import { getOperationAST, Kind, OperationTypeNode, parse, type DocumentNode, type GraphQLSchema, type SelectionSetNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { attachment } from '../http/plugins/attachment.js';
import { requestContextOf, type NodeServerContext } from '../http/plugins/server-context.js';
import { KEY_POLICIES, keyPolicyOf } from '../modules/idempotency/policy.js';
import { fingerprintOf, parseIdempotencyKey, type Claim } from '../modules/idempotency/store.js';
import { refusalResponse } from './errors.js';


const claims = attachment<Request, { claim: Claim; secret: boolean } | null>('idempotency claim');

/** The root fields of the mutation a GraphQL POST body runs, or undefined (not a mutation, or not one Yoga will run as sent). */
function mutationFields(body: string): string[] | undefined {
  try {
    const { query, operationName } = JSON.parse(body) as { query?: unknown; operationName?: unknown };
    if (typeof query !== 'string') return undefined;
    const document = parse(query);
    const operation = getOperationAST(document, typeof operationName === 'string' ? operationName : undefined);
    if (operation?.operation !== OperationTypeNode.MUTATION) return undefined;
    return rootFields(document, operation.selectionSet, new Set());
  } catch {
    return undefined; // not JSON or not a document: Yoga answers it
  }
}

/** The field names a root selection set selects, through its fragments (each spread once). */
function rootFields(document: DocumentNode, set: SelectionSetNode, spread: Set<string>): string[] {
  return set.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection.name.value];
    if (selection.kind === Kind.INLINE_FRAGMENT) return rootFields(document, selection.selectionSet, spread);
    const name = selection.name.value;
    if (spread.has(name)) return [];
    spread.add(name);
    const fragment = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === name);
    return fragment?.kind === Kind.FRAGMENT_DEFINITION ? rootFields(document, fragment.selectionSet, spread) : [];
  });
}

export function useIdempotency({ path, schema }: { path: string; schema: GraphQLSchema }): Plugin<object, NodeServerContext> {
  const mutations = schema.getMutationType()?.getFields() ?? {};
  for (const name of Object.keys(KEY_POLICIES)) {
    if (!mutations[name]) throw new Error(`useIdempotency: Mutation.${name} is not in the schema`);
  }
  return {
    // The hooks answer synchronously for every request they do not apply to: an async hook costs
    // every request of the server a promise (Yoga runs a hook that returns none on a fast path).
    onRequest({ request, url, serverContext, endResponse, fetchAPI }) {
      if (url.pathname !== path || request.method !== 'POST') return;
      // As node read it: a header sent empty is still there (the request Yoga runs may have dropped it).
      const sent = serverContext.req?.headers['idempotency-key'];
      const header = typeof sent === 'string' ? sent : request.headers.get('idempotency-key');
      if (header === null) return;
      const body = serverContext.req?.body ?? '';
      const fields = mutationFields(body);
      if (!fields || fields.some((name) => keyPolicyOf(name) === 'tokens')) return;
      return begin(request, url, header, body, fields, endResponse, fetchAPI.Response);
    },
    onResponse({ request, response }) {
      const pending = claims.get(request);
      if (!pending) return;
      claims.set(request, null);
      return finish(request, response, pending);
    },
  };

  async function begin(request: Request, url: URL, header: string, body: string, fields: string[], endResponse: (response: Response) => void, Response: typeof globalThis.Response): Promise<void> {
    const ctx = requestContextOf(request);
    try {
      const caller = await ctx.caller();
      if (!caller) return; // keys are per caller: an anonymous mutation just runs
      const begun = await ctx.services.idempotency.begin({
        userId: caller.userId, key: parseIdempotencyKey(header), method: 'POST', path: url.pathname + url.search, fingerprint: fingerprintOf(body),
      });
      if (begun.replay) {
        const { status, body: stored, headers } = begun.replay;
        return endResponse(new Response(stored, { status, headers: { ...headers, 'idempotent-replayed': 'true' } }));
      }
      claims.set(request, { claim: begun.claim, secret: fields.some((name) => keyPolicyOf(name) === 'secret') });
    } catch (error) {
      endResponse(refusalResponse(Response, error, request, ctx.log(), true));
    }
  }

  async function finish(request: Request, response: Response, pending: { claim: Claim; secret: boolean }): Promise<void> {
    const ctx = requestContextOf(request);
    const store = ctx.services.idempotency;
    try {
      const type = response.headers.get('content-type') ?? '';
      if (response.status >= 200 && response.status < 300 && /json/i.test(type)) {
        const text = await response.clone().text();
        if (!(JSON.parse(text) as { errors?: unknown }).errors) {
          await (pending.secret ? store.secretShown(pending.claim) : store.store(pending.claim, { status: response.status, body: text, headers: { 'content-type': type } }));
          return;
        }
      }
      await store.release(pending.claim);
    } catch (error) {
      ctx.log().warn({ err: error }, 'could not store or release an Idempotency-Key of a mutation');
    }
  }
}
