// Matches a request to a route, validates its input with the route's schemas, calls the handler
// and writes the response. 404 for unknown paths, 405 with Allow for known paths.
import { z } from 'zod';
import type { RequestContext } from '../context.js';
import { forbidden, methodNotAllowed } from '../errors.js';
import type { CachedReads } from '../graphql/response-cache.js';
import { readJsonBody } from './body.js';
import { ifNoneMatchHolds } from './headers.js';
import type { Method, RouteDefinition } from './route.js';
import { assertCleanInput, parseWith } from './validation.js';

interface CompiledPath {
  pattern: RegExp;
  paramNames: string[];
  routes: Map<Method, RouteDefinition>;
}

const emptyObject = z.object({});

export class Router {
  private readonly paths: CompiledPath[] = [];
  readonly routes: RouteDefinition[] = [];

  /** `reads`: the response cache the routes that declare `cached` are read through (none: every read runs). */
  constructor(private readonly reads?: CachedReads) {}

  add(...routes: RouteDefinition[]): this {
    for (const route of routes) {
      if (route.cached && (route.method !== 'GET' || route.auth)) throw new Error(`${route.method} ${route.path}: only a public GET is cached`);
      let compiled = this.paths.find((p) => p.pattern.source === compile(route.path).pattern.source);
      if (!compiled) {
        compiled = { ...compile(route.path), routes: new Map() };
        this.paths.push(compiled);
      }
      if (compiled.routes.has(route.method)) throw new Error(`duplicate route ${route.method} ${route.path}`);
      compiled.routes.set(route.method, route);
      this.routes.push(route);
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
    const allow = [...compiled.routes.keys()];
    if (allow.includes('GET')) allow.push('HEAD' as Method);
    allow.push('OPTIONS' as Method);
    if (method === 'OPTIONS') {
      return new Response(null, { status: 204, headers: { allow: allow.join(', '), 'access-control-allow-methods': allow.join(', ') } });
    }
    const route = compiled.routes.get((method === 'HEAD' ? 'GET' : method) as Method);
    if (!route) {
      throw methodNotAllowed(method, url.pathname, allow);
    }
    const caller = route.auth ? await ctx.requireCaller() : null;
    // A caller who may not use the route learns nothing about its input: 403 before any 400.
    if (route.roles && !(caller && route.roles.includes(caller.role))) throw forbidden();
    const query = Object.fromEntries(url.searchParams);
    assertCleanInput(query, 'query');
    const body = route.body ? await readJsonBody(request) : undefined;
    assertCleanInput(body, '');
    const input = {
      params: parseWith(route.params ?? emptyObject, params, 'path'),
      query: parseWith(route.query ?? emptyObject, query, 'query'),
      body: route.body ? parseWith(route.body, body, '') : {},
      ctx,
      caller,
    };
    if (route.cached && this.reads) {
      const { cached } = route;
      // The entry of this read: the route and its parsed input (the same however the path was spelt).
      const key = `${route.operationId}|${JSON.stringify(input.params)}|${JSON.stringify(input.query)}`;
      const { body, etag } = await this.reads.read(key, async () => {
        const data = await route.handler(input as never);
        return { data, entities: cached(data) };
      });
      if (ifNoneMatchHolds(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers: { etag } });
      return new Response(method === 'HEAD' ? null : body, { status: route.success.status, headers: { 'content-type': 'application/json; charset=utf-8', etag } });
    }
    const result = await route.handler(input as never);
    const status = route.success.status;
    if (status === 204 || result === undefined) return new Response(null, { status });
    return new Response(method === 'HEAD' ? null : JSON.stringify(result), {
      status,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  }

  /** The template (`/api/users/{id}`) of the route a path matches, whatever the method. */
  templateOf(pathname: string): string | undefined {
    const found = this.match(pathname);
    return found && found.compiled.routes.values().next().value?.path;
  }

  private match(pathname: string): { compiled: CompiledPath; params: Record<string, string> } | undefined {
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
