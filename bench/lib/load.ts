// Load generation with autocannon, in the bench process (the servers run in their own processes).
import autocannon from 'autocannon';

export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  /** Every response body must equal this, or it counts as a mismatch (GraphQL errors come with 200). */
  expectBody?: string;
}

/** One request, to check the scenario works and learn the body every response should have. */
export async function probe(baseUrl: string, spec: RequestSpec): Promise<{ status: number; body: string }> {
  const res = await fetch(new URL(spec.path, baseUrl), { method: spec.method, headers: spec.headers, body: spec.body });
  return { status: res.status, body: await res.text() };
}

export function load(baseUrl: string, spec: RequestSpec, options: LoadOptions): Promise<autocannon.Result> {
  return autocannon({
    url: new URL(spec.path, baseUrl).toString(),
    method: spec.method,
    headers: spec.headers,
    body: spec.body,
    connections: options.connections,
    duration: options.durationSeconds,
    expectBody: options.expectBody,
  });
}
