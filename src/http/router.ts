// Matches a request to a route, validates its input with the route's schemas, calls the handler
// and writes the response. 404 for unknown paths, 405 with Allow for known paths.
import type { RequestContext } from '../context.js';
import { forbidden, methodNotAllowed } from '../errors.js';
import type { CachedReads } from '../modules/response-cache/index.js';
import { keyPolicyOf } from '../modules/idempotency/policy.js';
import { fingerprintOf, parseIdempotencyKey, type StoredResponse } from '../modules/idempotency/store.js';
import { readJsonBody } from './body.js';
import { strongEntityTag } from '../digest.js';
import { ifMatchHolds, ifNoneMatchHolds, responseHeaders } from './headers.js';
import { Answered, takesIdempotencyKey, type Method, type RouteDefinition, type RouteGuard, type RouteInput } from './route.js';
import { assertCleanInput, parseWith } from '../input.js';

interface CompiledPath {
  pattern: RegExp;
  paramNames: string[];
  routes: Map<Method, RouteDefinition>;
}

export class Router {
  private readonly paths: CompiledPath[] = [];
  /** The paths without parameters, by their one spelling (and with a trailing slash): found without a regex. */
  private readonly exact = new Map<string, CompiledPath>();
  readonly routes: RouteDefinition[] = [];
  /** The routes that take an Idempotency-Key (takesIdempotencyKey). */
  private readonly keyed = new WeakSet<RouteDefinition>();

  /**
   * `reads`: the response cache the routes that declare `cached` are read through (none: every
   * read runs). `guard`: runs every handler, once its input is parsed (none: the handler runs).
   */
  constructor(
    private readonly reads?: CachedReads,
    private readonly guard?: RouteGuard,
  ) {}

  add(...routes: RouteDefinition[]): this {
    for (const route of routes) {
      if (route.cached && (route.method !== 'GET' || route.auth)) throw new Error(`${route.method} ${route.path}: only a public GET is cached`);
      let compiled = this.paths.find((p) => p.pattern.source === compile(route.path).pattern.source);
      if (!compiled) {
        compiled = { ...compile(route.path), routes: new Map() };
        this.paths.push(compiled);
        if (!compiled.paramNames.length) this.addExact(compiled, route.path);
      }
      if (compiled.routes.has(route.method)) throw new Error(`duplicate route ${route.method} ${route.path}`);
      compiled.routes.set(route.method, route);
      this.routes.push(route);
      if (takesIdempotencyKey(route)) this.keyed.add(route);
    }
    return this;
  }

  /**
   * Answers the request if its path is a REST route; undefined when no route has that path.
   * `Response` is the server's fetch API (Yoga's), whose string bodies are written without copying.
   */
  async handle(request: Request, url: URL, ctx: RequestContext, Response: typeof globalThis.Response): Promise<Response | undefined> {
    const found = this.match(url.pathname);
    if (!found) return undefined;
    const { compiled, params } = found;
    const method = request.method.toUpperCase();
    if (method === 'OPTIONS') {
      const allow = allowedMethods(compiled);
      return new Response(null, { status: 204, headers: { allow: allow.join(', '), 'access-control-allow-methods': allow.join(', ') } });
    }
    const route = compiled.routes.get((method === 'HEAD' ? 'GET' : method) as Method);
    if (!route) {
      throw methodNotAllowed(method, url.pathname, allowedMethods(compiled));
    }
    const caller = route.auth ? await ctx.requireCaller() : null;
    // A caller who may not use the route learns nothing about its input: 403 before any 400.
    if (route.roles && !(caller && route.roles.includes(caller.role))) throw forbidden();
    const keyHeader = caller && this.keyed.has(route) ? request.headers.get('idempotency-key') : null;
    const idempotencyKey = keyHeader === null ? undefined : parseIdempotencyKey(keyHeader);
    // The body as sent, for the key's fingerprint (read once more by readJsonBody).
    const sent = idempotencyKey === undefined ? undefined : await request.clone().text();
    // An empty query string is an empty object (without making url.searchParams).
    const query = url.search.length > 1 ? Object.fromEntries(url.searchParams) : {};
    assertCleanInput(query, 'query');
    const body = route.body ? await readJsonBody(request) : undefined;
    assertCleanInput(body, '');
    const ifMatch = route.ifMatch ? request.headers.get('if-match') : null;
    const input = {
      // A route without a schema for them reads neither: its params and query are {} (the empty
      // schema's answer, which drops every key) without a parse.
      params: route.params ? parseWith(route.params, params, 'path') : {},
      query: route.query ? parseWith(route.query, query, 'query') : {},
      body: route.body ? parseWith(route.body, body, '') : {},
      ctx,
      caller,
      precondition: ifMatch === null ? undefined : (current: unknown) => ifMatchHolds(ifMatch, strongEntityTag(JSON.stringify(current))),
    };
    if (route.cached && this.reads) {
      const { cached } = route;
      // The entry of this read: the route and its parsed input (the same however the path was spelt).
      const key = `${route.operationId}|${JSON.stringify(input.params)}|${JSON.stringify(input.query)}`;
      const { body, etag } = await this.reads.read(key, async () => {
        const data = await this.run(route, input);
        return { data, entities: cached(data) };
      });
      if (ifNoneMatchHolds(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers: { etag } });
      return new Response(method === 'HEAD' ? null : body, { status: route.success.status, headers: { 'content-type': 'application/json; charset=utf-8', etag } });
    }
    if (idempotencyKey === undefined) {
      const answer = answerOf(route, await this.run(route, input));
      if (answer.headers.etag && method !== 'POST' && ifNoneMatchHolds(request.headers.get('if-none-match'), answer.headers.etag)) {
        return new Response(null, { status: 304, headers: { etag: answer.headers.etag, 'cache-control': 'no-store' } });
      }
      return responseOf(Response, answer, method === 'HEAD');
    }
    // Idempotency-Key (src/modules/idempotency/store.ts): the stored answer, or this run's, stored if 2xx.
    const store = ctx.services.idempotency;
    const begun = await store.begin({
      userId: caller!.userId, key: idempotencyKey, method, path: url.pathname + url.search, fingerprint: fingerprintOf(sent!),
    });
    if (begun.replay) return responseOf(Response, { ...begun.replay, headers: { ...begun.replay.headers, 'idempotent-replayed': 'true' } }, false);
    let answer: Answer;
    try {
      answer = answerOf(route, await this.run(route, input));
    } catch (error) {
      await store.release(begun.claim).catch((failed: unknown) => ctx.log().warn({ err: failed }, 'could not release an Idempotency-Key claim'));
      throw error;
    }
    // The change is made: its answer goes out even if it cannot be stored (the claim then holds
    // the key until RUNNING_LEASE_MS).
    await (keyPolicyOf(route.operationId) === 'secret' ? store.secretShown(begun.claim) : store.store(begun.claim, answer))
      .catch((failed: unknown) => ctx.log().warn({ err: failed }, 'could not store an Idempotency-Key response'));
    return responseOf(Response, answer, false);
  }

  /**
   * Records a path without parameters, spelt as its template or with a trailing slash, unless an
   * earlier template matches that spelling (the first template a path matches is its route).
   */
  private addExact(compiled: CompiledPath, template: string): void {
    for (const spelling of [template, `${template}/`]) {
      if (!this.exact.has(spelling) && !this.paths.some((p) => p !== compiled && p.pattern.test(spelling))) this.exact.set(spelling, compiled);
    }
  }

  /** The route's handler, through the guard. */
  private run(route: RouteDefinition, input: RouteInput<unknown, unknown, unknown, boolean>): Promise<unknown> {
    const run = () => route.handler(input as never);
    return this.guard ? this.guard(route, input.ctx, run) : run();
  }

  /** The template (`/api/users/{id}`) of the route a path matches, whatever the method. */
  templateOf(pathname: string): string | undefined {
    const found = this.match(pathname);
    return found && found.compiled.routes.values().next().value?.path;
  }

  private match(pathname: string): { compiled: CompiledPath; params: Record<string, string> } | undefined {
    const exact = this.exact.get(pathname);
    if (exact) return { compiled: exact, params: {} };
    for (const compiled of this.paths) {
      const m = compiled.pattern.exec(pathname);
      if (m) {
        const params: Record<string, string> = {};
        try {
          compiled.paramNames.forEach((name, i) => {
            params[name] = decodeURIComponent(m[i + 1]!);
          });
        } catch {
          // Malformed percent-encoding (`%E0%A4%A`): no resource has that name.
          return undefined;
        }
        return { compiled, params };
      }
    }
    return undefined;
  }
}

/** What a route answered, before it is a Response: what an Idempotency-Key stores. */
type Answer = StoredResponse;
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The answer of what the route's handler returned. A JSON answer of a GET, or of a write declaring
 * `ifMatch`, carries the strong ETag of its bytes: the tag If-None-Match and If-Match compare
 * with. Such an answer holds the caller's data (or is cheap to make again), so it is never kept
 * by a cache (`no-store`): the client keeps the tag.
 */
function answerOf(route: RouteDefinition, answer: unknown): Answer {
  const { status, result } = answer instanceof Answered ? { status: answer.status, result: answer.body as unknown } : { status: route.success.status, result: answer };
  if (status === 204 || result === undefined) return { status, body: null, headers: {} };
  const body = JSON.stringify(result);
  if (route.method !== 'GET' && !route.ifMatch) return { status, body, headers: { 'content-type': JSON_TYPE } };
  return { status, body, headers: { 'content-type': JSON_TYPE, etag: strongEntityTag(body), 'cache-control': 'no-store' } };
}

/** `Response` is the server's fetch API (Yoga's), whose string bodies are written without copying. */
const responseOf = (Response: typeof globalThis.Response, answer: Answer, headOnly: boolean): Response =>
  // A new headers object (the response's headers are written into it), not a spread (headers.ts).
  new Response(headOnly ? null : answer.body, { status: answer.status, headers: responseHeaders(answer.headers) });

/** The methods a path answers: its routes', HEAD beside a GET, and OPTIONS. */
function allowedMethods(compiled: CompiledPath): Method[] {
  const allow = [...compiled.routes.keys()];
  if (allow.includes('GET')) allow.push('HEAD' as Method);
  allow.push('OPTIONS' as Method);
  return allow;
}

function compile(template: string): { pattern: RegExp; paramNames: string[] } {
  const paramNames: string[] = [];
  const source = template
    .split('/')
    .map((segment) => {
      const m = /^\{(\w+)\}$/.exec(segment);
      if (!m) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      paramNames.push(m[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { pattern: new RegExp(`^${source}/?$`), paramNames };
}
