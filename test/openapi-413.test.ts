// A body over BODY_LIMIT_BYTES is refused with 413 on every request but a GET, whether or not its
// route reads a body: the server reads (and limits) the body before routing (src/server.ts). So
// every operation of /api/openapi.json but the GETs lists 413; it used to list it only where the
// route has a request body, and a client generated from the document met an undeclared status
// on DELETE /api/v1/webhooks/{id}, POST /api/v1/lessons/publish, rotate-secret and the others.
import { describe, expect, it } from 'vitest';
import { expectError } from './support/assert.js';
import { serverForSuite } from './support/server.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a served document

const LIMIT = 1024;

describe('openapi.json lists the 413 every operation but a GET can answer', () => {
  const suite = serverForSuite({ kind: 'pglite', env: { BODY_LIMIT_BYTES: String(LIMIT) } });

  it('an oversized body gets 413 on every operation that is not a GET, and the operation lists 413', async () => {
    const { api } = suite;
    const doc = (await api.get('/api/openapi.json')).body as Json;
    const ada = (await api.loginAs('ada')).token;
    const big = JSON.stringify({ filler: 'x'.repeat(LIMIT * 2) });
    const undeclared: string[] = [];
    let tried = 0;
    for (const [template, operations] of Object.entries(doc.paths as Json)) {
      for (const [method, operation] of Object.entries(operations as Json)) {
        if (method === 'get') continue;
        const path = template.replace('{id}', 'x_unknown').replace('{deliveryId}', 'dlv_unknown');
        const reply = await api.request(method.toUpperCase(), path, { token: ada, body: big });
        expectError(reply, 413);
        tried++;
        if (!(operation as Json).responses['413']) undeclared.push(`${method.toUpperCase()} ${template}`);
      }
    }
    expect(tried).toBeGreaterThan(15);
    expect(undeclared).toEqual([]);
  });
});
