// Signing in as a demo account and making it an API key, through the service's own routes: over
// HTTP (bench/run.ts, bench/limits.ts) or through `yoga.fetch` in one process (bench/in-process.ts).
import type { DEMO_ACCOUNTS } from '../../src/db/seed.js';

type Account = Pick<(typeof DEMO_ACCOUNTS)[number], 'email' | 'password'>;

/** A request to the service by path: over HTTP, or handed to Yoga in the same process. */
export type ServiceFetch = (path: string, init?: RequestInit) => Promise<Response>;

/** The service at `serviceUrl`, over HTTP. */
export const overHttp =
  (serviceUrl: string): ServiceFetch =>
  (path, init) =>
    fetch(`${serviceUrl}${path}`, init);

/** The bearer token of a fresh sign-in as `account`. */
export async function signIn(service: ServiceFetch, { email, password }: Account): Promise<string> {
  const login = await service('/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!login.ok) throw new Error(`login as ${email}: HTTP ${login.status} ${await login.text()}`);
  return ((await login.json()) as { token: string }).token;
}

/** A new API key of `account`, named `name`. */
export async function createApiKey(service: ServiceFetch, account: Account, name: string): Promise<string> {
  const created = await service('/api/v1/api-keys', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await signIn(service, account)}` },
    body: JSON.stringify({ name }),
  });
  if (created.status !== 201) throw new Error(`create an API key of ${account.email}: HTTP ${created.status} ${await created.text()}`);
  return ((await created.json()) as { key: string }).key;
}
