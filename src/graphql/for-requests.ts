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
 * that `applies` accepts; its set-up hooks (onYogaInit, onSchemaChange…) are its own. Unlike a
 * plugin's own `enabled` option, a skipped request runs none of its hooks: Yoga's response cache
 * records every request in WeakMaps before asking, which V8 clears only in a full collection.
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
