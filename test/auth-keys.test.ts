// Signing keys that rotate (JWT_SECRET lists keys: the first signs, all verify, tokens carry
// `kid`), across restarts of the real server on one embedded-database directory, as an operator
// rotates them: add the new key first, then drop the old one.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, decodeProtectedHeader } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { keyId } from '../src/modules/auth/tokens.js';
import { expectError } from './support/assert.js';
import { client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { startTestServer, type TestServer } from './support/server.js';

const OLD = 'the-old-signing-key-0123456789-abcdefghij';
const NEW = 'the-new-signing-key-9876543210-klmnopqrst';
const kid = (secret: string) => keyId(new TextEncoder().encode(secret));
const ADA = { email: 'ada@example.com', password: 'lovelace-1815' };

let dataDir: string | undefined;
afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The server on the shared data directory with these keys. */
async function startWith(jwtSecret: string): Promise<TestServer> {
  dataDir ??= await mkdtemp(join(tmpdir(), 'learnstream-keys-'));
  return startTestServer({ kind: 'pglite', env: { JWT_SECRET: jwtSecret, ...NO_RATE_LIMITS }, reuse: { dataDir } });
}

describe('JWT_SECRET with several keys', () => {
  it('reads every key, the first one first', () => {
    const config = loadConfig({ JWT_SECRET: `${NEW}, ${OLD}`, DATA_DIR: tmpdir() });
    expect(config.jwtKeys.map((k) => new TextDecoder().decode(k))).toEqual([NEW, OLD]);
  });

  it('names a key that is too short by its position, never echoing it', () => {
    let problems: string[] = [];
    try {
      loadConfig({ JWT_SECRET: `${NEW},too-short`, DATA_DIR: tmpdir() });
    } catch (error) {
      if (error instanceof ConfigError) problems = error.problems;
    }
    expect(problems).toEqual(['JWT_SECRET: key 2 must be at least 32 characters']);
  });

  it('rotates across restarts: tokens of a listed key keep working, those of a removed key end', async () => {
    // 1. One key.
    let server = await startWith(OLD);
    let api = client(server.url);
    const first = await api.post('/api/auth/login', ADA);
    expect(first.status).toBe(200);
    const oldToken = first.body.token as string;
    const refreshToken = first.body.refreshToken as string;
    expect(decodeProtectedHeader(oldToken).kid).toBe(kid(OLD));
    expect((await api.get('/api/v1/user/me', { token: oldToken })).status).toBe(200);
    await server.stop();

    // 2. The new key first: it signs, and the old key's tokens still verify.
    server = await startWith(`${NEW},${OLD}`);
    api = client(server.url);
    expect((await api.get('/api/v1/user/me', { token: oldToken })).body.email).toBe(ADA.email);
    const second = await api.post('/api/auth/login', ADA);
    const newToken = second.body.token as string;
    expect(decodeProtectedHeader(newToken).kid).toBe(kid(NEW));
    expect((await api.get('/api/v1/user/me', { token: newToken })).status).toBe(200);
    await server.stop();

    // 3. The old key removed: its tokens end at once; the new key's work; the session goes on.
    server = await startWith(NEW);
    api = client(server.url);
    try {
      expectError(await api.get('/api/v1/user/me', { token: oldToken }), 403, 'Missing or invalid token');
      expect((await api.get('/api/v1/user/me', { token: newToken })).body.email).toBe(ADA.email);
      // A refresh token is not signed with the keys: it still renews its session, signed anew.
      const renewed = await api.post('/api/auth/refresh', { refreshToken });
      expect(renewed.status).toBe(200);
      expect(decodeProtectedHeader(renewed.body.token as string).kid).toBe(kid(NEW));
      expect((await api.get('/api/v1/user/me', { token: renewed.body.token as string })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('refuses a token that names a listed key but was signed with another', async () => {
    const server = await startWith(NEW);
    const api = client(server.url);
    try {
      const login = await api.post('/api/auth/login', ADA);
      const { sub, sid } = JSON.parse(Buffer.from((login.body.token as string).split('.')[1]!, 'base64url').toString()) as { sub: string; sid: string };
      const now = Math.floor(Date.now() / 1000);
      const forged = await new SignJWT({ sid })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: kid(NEW) })
        .setSubject(sub)
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(new TextEncoder().encode('an-attacker-key-that-is-long-enough-000000'));
      expectError(await api.get('/api/v1/user/me', { token: forged }), 403, 'Missing or invalid token');
      // And one that names no key we have.
      const unknown = await new SignJWT({ sid })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: 'nobody-knows' })
        .setSubject(sub)
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(new TextEncoder().encode(NEW));
      expectError(await api.get('/api/v1/user/me', { token: unknown }), 403, 'Missing or invalid token');
    } finally {
      await server.stop();
    }
  });
});
