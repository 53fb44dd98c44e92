// The webhook URL guard on its own (no server): which URLs are refused, and why. The delivery
// worker calls the same assertDeliverableUrl before every attempt.
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.js';
import { assertDeliverableUrl, isPrivateAddress, urlFormProblem } from '../src/modules/webhooks/url-guard.js';

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
    ]) {
      expect((await refusal(url, false))?.message, url).toMatch(/^url: must not target a private, loopback or link-local address/);
    }
  });

  it('accepts a public address literal without DNS', async () => {
    expect(await refusal('https://93.184.215.14/hook', false)).toBeUndefined();
    expect(await refusal('https://[2606:4700:4700::1111]/hook', false)).toBeUndefined();
  });

  it('refuses a host that does not resolve (its target cannot be checked)', async () => {
    expect((await refusal('https://nonexistent.invalid/hook', false))?.message).toBe('url: host nonexistent.invalid does not resolve');
  });
});
