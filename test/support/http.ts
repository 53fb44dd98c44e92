// A small client over real HTTP: every call returns what a client sees (status, headers, body).
import { DEMO_ACCOUNTS } from '../../src/db/seed.js';

export interface Reply<T = any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- test bodies are asserted field by field
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  headers?: Record<string, string>;
  /** A JSON-serialisable body, or a raw string sent as is. */
  body?: unknown;
}

export function client(baseUrl: string) {
  async function request(method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(baseUrl + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  const api = {
    request,
    get: (path: string, o?: RequestOptions) => request('GET', path, o),
    post: (path: string, body?: unknown, o?: RequestOptions) => request('POST', path, { ...o, body }),
    patch: (path: string, body?: unknown, o?: RequestOptions) => request('PATCH', path, { ...o, body }),
    delete: (path: string, o?: RequestOptions) => request('DELETE', path, o),
    /** POSTs a GraphQL operation to /graphql. */
    graphql: (query: string, variables?: Record<string, unknown>, o?: RequestOptions) =>
      request('POST', '/graphql', { ...o, body: { query, variables } }),
    /** Logs in and returns the token pair. */
    async login(email: string, password: string) {
      const reply = await request('POST', '/api/auth/login', { body: { email, password } });
      if (reply.status !== 200) throw new Error(`login failed: ${reply.status} ${reply.text}`);
      return reply.body as { token: string; expiresIn: number; refreshToken: string; refreshExpiresIn: number };
    },
    /** Logs in as a demo account: 'ada' (ADMIN, PRO), 'grace' (MEMBER, FREE), 'alan' (MEMBER, ENTERPRISE). */
    async loginAs(who: 'ada' | 'grace' | 'alan') {
      const account = DEMO_ACCOUNTS.find((a) => a.email.startsWith(who))!;
      return api.login(account.email, account.password);
    },
  };
  return api;
}

export type Client = ReturnType<typeof client>;
