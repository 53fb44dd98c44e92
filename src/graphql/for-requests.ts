// A plugin that applies to some requests only: its per-request hooks are not called for the others.

/** The hooks that see one request: by the hook's payload, the request it is for (none over WebSocket). */
const REQUEST_OF: Record<string, (payload: never) => Request | undefined> = {
  onRequest: (p: { request: Request }) => p.request,
  onRequestParse: (p: { request: Request }) => p.request,
  onParams: (p: { request: Request }) => p.request,
  onExecutionResult: (p: { request: Request }) => p.request,
  onResultProcess: (p: { request: Request }) => p.request,
  onResponse: (p: { request: Request }) => p.request,
  onEnveloped: (p: { context?: { request?: Request } }) => p.context?.request,
  onParse: (p: { context?: { request?: Request } }) => p.context?.request,
  onValidate: (p: { context?: { request?: Request } }) => p.context?.request,
  onContextBuilding: (p: { context?: { request?: Request } }) => p.context?.request,
  onExecute: (p: { args: { contextValue?: { request?: Request } } }) => p.args.contextValue?.request,
  onSubscribe: (p: { args: { contextValue?: { request?: Request } } }) => p.args.contextValue?.request,
};

type Hook = (payload: never) => unknown;

/**
 * `plugin` (and the plugins it adds itself), with its per-request hooks called only for requests
 * that `applies` accepts; the others go by as if it were not there. The hooks that set it up
 * (onYogaInit, onSchemaChange…) are its own.
 *
 * For a plugin whose option `enabled` says the same, that is not the same thing: a disabled
 * request still runs the plugin's hooks up to where they ask. Yoga's response cache does its
 * bookkeeping for every request before asking, in WeakMaps by request and by context, and Node
 * 20's V8 clears those entries only in a full collection (see src/http/plugins/attachment.ts).
 */
export function forRequests<P extends object>(applies: (request: Request) => boolean, plugin: P): P {
  const gated: Record<string, unknown> = {};
  for (const [name, hook] of Object.entries(plugin)) {
    const requestOf = REQUEST_OF[name];
    if (requestOf && typeof hook === 'function') {
      gated[name] = function (this: unknown, payload: never) {
        const request = requestOf(payload);
        return request && applies(request) ? (hook as Hook).call(this, payload) : undefined;
      };
    } else if (name === 'onPluginInit' && typeof hook === 'function') {
      gated[name] = (payload: { addPlugin: (added: object) => void }) =>
        (hook as (payload: unknown) => unknown)({ ...payload, addPlugin: (added: object) => payload.addPlugin(forRequests(applies, added)) });
    } else gated[name] = hook;
  }
  return gated as P;
}
