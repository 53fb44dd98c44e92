// The webhook URL guard: which URLs are refused, and why, on its own and through a server in
// production mode (WEBHOOK_ALLOW_PRIVATE_TARGETS=false), when an endpoint is saved and when a
// delivery is attempted (the worker calls the same assertDeliverableUrl before every attempt).
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.js';
import { newId } from '../src/ids.js';
import { assertDeliverableUrl, isPrivateAddress, urlFormProblem } from '../src/modules/webhooks/url-guard.js';
import { expectError } from './support/assert.js';
import { serverAndReceiverTest } from './support/fixtures.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import type { Delivery } from './support/receiver.js';
import { sql } from './support/server.js';
import { waitFor } from './support/wait.js';

async function refusal(url: string, allowPrivate: boolean): Promise<AppError | undefined> {
  try {
    await assertDeliverableUrl(url, allowPrivate);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const appError = error as AppError;
    expect(appError.code).toBe('BAD_USER_INPUT');
    expect(appError.details).toEqual({ field: 'url' });
    expect(appError.message).toMatch(/^url: /);
    return appError;
  }
}

/** Loopback and private IPv4 inside IPv6 by every standard prefix, as URLs (the URL parser normalises the spelling). */
const EMBEDDED_LOOPBACK_URLS = [
  'http://[::ffff:0:127.0.0.1]/', 'http://[::FFFF:0:7F00:1]:8080/x', 'http://[0:0:0:0:ffff:0:a9fe:a9fe]/latest/meta-data/',
  'http://[64:ff9b:1::7f00:1]/', 'http://[0064:FF9B:0001::127.0.0.1]/x', 'http://[64:ff9b:1:7f00:0:100::]/',
  'http://[64:ff9b::127.0.0.1]/', 'http://[0064:ff9b::0a00:0001]/', 'http://[::ffff:7f00:1]/', 'http://[0:0:0:0:0:FFFF:192.168.1.1]/',
  'http://[2002:7f00:1::]/', 'http://[2002:A9FE:A9FE::1]/', 'http://[::127.0.0.1]/', 'http://[::a00:1]/',
];
/** A public IPv4 (8.8.8.8, 1.1.1.1) inside the same prefixes. */
const EMBEDDED_PUBLIC_URLS = [
  'https://[64:ff9b::808:808]/hook', 'https://[64:FF9B::8.8.8.8]/hook', 'https://[64:ff9b:1::101:101]/hook',
  'https://[::ffff:0:8.8.8.8]/hook', 'https://[::ffff:808:808]/hook', 'https://[2002:808:808::1]/hook',
];

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1', '127.255.255.254', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.0.1', '169.254.169.254',
    '100.64.0.1', '100.127.255.255', '0.0.0.0', '0.1.2.3', '224.0.0.1', '239.255.255.255', '255.255.255.255',
    '::', '::1', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'febf::1', 'ff02::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe', '::7f00:1', '64:ff9b::a00:1', '2002:c0a8:101::1',
  ])('%s is private', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8', '1.1.1.1', '93.184.215.14', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '11.0.0.1',
    '2606:4700:4700::1111', '2001:4860:4860::8888', '::ffff:8.8.8.8', '64:ff9b::808:808', 'not-an-address',
  ])('%s is not private', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  // IPv4 carried inside IPv6 by each standard prefix counts as that IPv4 address, however spelled
  // (compressed, dotted-quad tail, upper case, zero-padded): the forms DNS answers come in.
  const EMBEDDED_PRIVATE: Record<string, string[]> = {
    '::ffff:0:0/96 (mapped)': ['::ffff:127.0.0.1', '::FFFF:7F00:1', '0:0:0:0:0:ffff:7f00:0001', '0000:0000:0000:0000:0000:FFFF:10.0.0.1', '::ffff:c0a8:1'],
    '::ffff:0:0:0/96 (translated)': [
      '::ffff:0:127.0.0.1', '::ffff:0:7f00:1', '::FFFF:0:7F00:1', '0:0:0:0:ffff:0:a9fe:a9fe', '0000:0000:0000:0000:ffff:0000:7f00:0001',
      '::ffff:0:10.1.2.3', '::ffff:0:0.0.0.0',
    ],
    '64:ff9b::/96 (NAT64)': ['64:ff9b::127.0.0.1', '64:FF9B::7F00:1', '0064:ff9b:0000:0000:0000:0000:0a00:0001', '64:ff9b::a9fe:a9fe', '64:ff9b::172.16.0.1'],
    '64:ff9b:1::/48 (local-use NAT64)': [
      '64:ff9b:1::7f00:1', '64:ff9b:1::127.0.0.1', '0064:FF9B:0001:0000:0000:0000:C0A8:0001', '64:ff9b:1::a9fe:a9fe', '64:ff9b:1::100.64.0.1',
      // Outside the /96 layout, where the IPv4 sits depends on the translator: refused.
      '64:ff9b:1:7f00:0:100::', '64:ff9b:1:0:7f:0:100:0', '64:ff9b:1:ffff::808:808',
    ],
    '2002::/16 (6to4)': ['2002:7f00:1::', '2002:7F00:0001::1', '2002:a9fe:a9fe:1234::1', '2002:0a00:0001:0000:0000:0000:0000:0001', '2002:e000:1::'],
    '::/96 (IPv4-compatible)': ['::127.0.0.1', '::7f00:1', '0:0:0:0:0:0:10.0.0.1', '::A9FE:A9FE', '0000:0000:0000:0000:0000:0000:c0a8:0101'],
  };
  it.each(Object.entries(EMBEDDED_PRIVATE))('%s with a private or loopback IPv4 inside is private', (_prefix, addresses) => {
    for (const address of addresses) expect(isPrivateAddress(address), address).toBe(true);
  });

  it('a public IPv4 inside any of those prefixes is not private', () => {
    for (const address of [
      '::ffff:8.8.8.8', '::ffff:808:808', '::ffff:0:8.8.8.8', '::FFFF:0:808:808', '64:ff9b::808:808', '64:FF9B::8.8.8.8',
      '0064:ff9b:0000:0000:0000:0000:0808:0808', '64:ff9b:1::808:808', '64:ff9b:1::1.1.1.1', '0064:FF9B:0001::0808:0808',
      '2002:808:808::1', '2002:0808:0808:0000:0000:0000:0000:0001', '::8.8.8.8', '::5db8:d70e',
    ]) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });
});

describe('urlFormProblem', () => {
  it('accepts absolute http(s) URLs up to 2048 characters', () => {
    expect(urlFormProblem('https://example.com/hooks?x=1')).toBeUndefined();
    expect(urlFormProblem('http://127.0.0.1:9/x')).toBeUndefined();
    expect(urlFormProblem(`https://example.com/${'a'.repeat(2048 - 20)}`)).toBeUndefined();
  });

  it('names what is wrong', () => {
    expect(urlFormProblem('example.com/hook')).toBe('must be an absolute http or https URL');
    expect(urlFormProblem('ftp://example.com/')).toBe('must be an absolute http or https URL');
    expect(urlFormProblem('javascript:alert(1)')).toBe('must be an absolute http or https URL');
    expect(urlFormProblem('file:///etc/passwd')).toBe('must be an absolute http or https URL');
    expect(urlFormProblem('https://user:pw@example.com/')).toMatch(/^must not contain credentials/);
    expect(urlFormProblem('https://:pw@example.com/')).toMatch(/^must not contain credentials/);
    expect(urlFormProblem(`https://example.com/${'a'.repeat(2048 - 19)}`)).toBe('must be at most 2048 characters');
    // Nothing listens on port 0: its deliveries could only fail until the endpoint was disabled.
    expect(urlFormProblem('http://example.com:0/x')).toBe('must name a port from 1 to 65535');
    expect(urlFormProblem('http://example.com:00/x')).toBe('must name a port from 1 to 65535');
    expect(urlFormProblem('http://example.com:65536/x')).toBe('must be an absolute http or https URL');
  });
});

describe('assertDeliverableUrl', () => {
  it('refuses a bad form whatever the private-target setting', async () => {
    for (const allow of [true, false]) {
      expect((await refusal('ftp://example.com/', allow))?.message).toBe('url: must be an absolute http or https URL');
      expect((await refusal('https://u:p@example.com/', allow))?.message).toMatch(/^url: must not contain credentials/);
    }
  });

  it('allows private targets when told to, without resolving anything', async () => {
    for (const url of ['http://127.0.0.1:9/x', 'http://localhost/x', 'http://[::1]/', 'http://169.254.169.254/', 'http://nonexistent.invalid/']) {
      expect(await refusal(url, true)).toBeUndefined();
    }
  });

  it('refuses localhost, private and loopback literals (in any spelling) when private targets are not allowed', async () => {
    for (const url of [
      'http://localhost/x', 'http://LocalHost:8080/x', 'http://localhost./x', 'http://a.b.localhost/x',
      'http://127.0.0.1:9/x', 'http://2130706433/', 'http://0x7f.0.0.1/', 'http://017700000001/', 'http://127.1/',
      'http://10.0.0.1/', 'http://[::1]/', 'http://[0:0:0:0:0:0:0:1]/', 'http://[::ffff:127.0.0.1]/', 'http://[fd00::1]/',
      'http://169.254.169.254/latest/meta-data/', 'http://0.0.0.0/', 'http://[::]/',
      ...EMBEDDED_LOOPBACK_URLS,
    ]) {
      expect((await refusal(url, false))?.message, url).toMatch(/^url: must not target a private, loopback or link-local address/);
    }
  });

  it('accepts a public address literal without DNS', async () => {
    expect(await refusal('https://93.184.215.14/hook', false)).toBeUndefined();
    expect(await refusal('https://[2606:4700:4700::1111]/hook', false)).toBeUndefined();
    for (const url of EMBEDDED_PUBLIC_URLS) expect(await refusal(url, false), url).toBeUndefined();
  });

  it('refuses a host that does not resolve (its target cannot be checked)', async () => {
    expect((await refusal('https://nonexistent.invalid/hook', false))?.message).toBe('url: host nonexistent.invalid does not resolve');
  });
});

const SCHEDULE_MS = [100, 200];
const guarded = serverAndReceiverTest({
  kind: 'postgres',
  env: { ...NO_RATE_LIMITS, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false', WEBHOOK_RETRY_SCHEDULE: SCHEDULE_MS.map((ms) => `${ms}ms`).join(',') },
});

describe('IPv4 inside IPv6 through a server with WEBHOOK_ALLOW_PRIVATE_TARGETS=false', () => {
  const it = guarded;

  it('refuses every loopback or private spelling on create and on PATCH (400 on url), and accepts a public IPv4 inside', async ({ api, ada }) => {
    for (const url of EMBEDDED_LOOPBACK_URLS) {
      const reply = await api.post('/api/v1/webhooks', { url, events: ['user.created'] }, { token: ada });
      expectError(reply, 400, /^url: must not target a private, loopback or link-local address/, 'url');
    }
    expect((await api.get('/api/v1/webhooks', { token: ada })).body.items).toEqual([]);

    const created = await api.post('/api/v1/webhooks', { url: 'https://[64:ff9b::808:808]/hook', events: ['user.created'] }, { token: ada });
    expect(created.status, created.text).toBe(201);
    expect(created.body.url).toBe('https://[64:ff9b::808:808]/hook');
    for (const url of EMBEDDED_LOOPBACK_URLS) {
      expectError(await api.patch(`/api/v1/webhooks/${created.body.id}`, { url }, { token: ada }), 400, /^url: must not target/, 'url');
    }
    // A refused change changed nothing.
    expect((await api.get(`/api/v1/webhooks/${created.body.id}`, { token: ada })).body.url).toBe('https://[64:ff9b::808:808]/hook');
    for (const url of EMBEDDED_PUBLIC_URLS.slice(1)) {
      const patched = await api.patch(`/api/v1/webhooks/${created.body.id}`, { url }, { token: ada });
      expect(patched.status, `${url}: ${patched.text}`).toBe(200);
    }
    expect((await api.delete(`/api/v1/webhooks/${created.body.id}`, { token: ada })).status).toBe(204);
  });

  it('refuses them at delivery too (an endpoint saved before the guard knew them), and the receiver gets nothing', async ({ server, api, ada, rx }) => {
    // ::ffff:127.0.0.1 reaches the receiver on 127.0.0.1 if let through; the others name loopback too.
    const urls = [
      `http://[::ffff:127.0.0.1]:${rx.port}/hook`, `http://[::ffff:0:127.0.0.1]:${rx.port}/hook`,
      `http://[64:ff9b:1::7f00:1]:${rx.port}/hook`, `http://[2002:7f00:1::]:${rx.port}/hook`,
    ];
    const ids: string[] = [];
    for (const url of urls) {
      const id = newId('whk');
      ids.push(id);
      await sql(server, `INSERT INTO "WebhookEndpoint" (id, url, events, secret, "updatedAt") VALUES ($1, $2, $3, $4, now())`, [
        id, url, ['analytics.hit'], `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
      ]);
    }
    expect((await api.post('/api/analytics/views', { path: '/embedded-ipv4' })).status).toBeLessThan(300);
    for (const id of ids) {
      const d = await waitFor(`${id} FAILED`, async () => {
        const items = (await api.get(`/api/v1/webhooks/${id}/deliveries`, { token: ada })).body.items as Delivery[];
        return items[0]?.status === 'FAILED' ? items[0] : undefined;
      });
      expect(d.attempts).toHaveLength(SCHEDULE_MS.length + 1);
      for (const a of d.attempts) {
        expect(a.statusCode).toBeNull();
        expect(a.error).toMatch(/^refused: url: must not target a private, loopback or link-local address/);
      }
    }
    expect(rx.hits).toHaveLength(0);
  });
});
