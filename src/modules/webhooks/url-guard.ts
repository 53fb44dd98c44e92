// Which URLs a webhook may point at. The admin routes check a URL when it is saved, and the
// delivery worker checks it again before every attempt, because a host name can start resolving
// to a private address after it was saved (DNS rebinding, or a record changed on purpose).
import { lookup } from 'node:dns/promises';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { badInput } from '../../errors.js';

export const MAX_URL_LENGTH = 2048;
/** A name that takes longer to resolve than this is refused rather than waited for. */
const DNS_TIMEOUT_MS = 5_000;

/** Addresses a webhook may not reach unless private targets are allowed. */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, including the cloud metadata service 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed by some stacks)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/**
 * The IPv4 address an IPv6 address carries by a standard prefix, which reaches (or stands for)
 * that IPv4 host: IPv4-mapped `::ffff:0:0/96`, IPv4-translated `::ffff:0:0:0/96`, IPv4-compatible
 * `::/96`, NAT64 `64:ff9b::/96` and local-use NAT64 `64:ff9b:1::/48` (the IPv4 in the last 32
 * bits), and 6to4 `2002::/16` (the IPv4 in bits 16–47). null for an address in
 * `64:ff9b:1::/48` outside its /96 layout: where its IPv4 sits depends on the prefix length the
 * local translator uses (RFC 6052), so it cannot be checked.
 */
function embeddedIPv4(address: string): string | null | undefined {
  const words = expandIPv6(address);
  if (!words) return undefined;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zero = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  const last32 = () => v4(words[6]!, words[7]!);
  if (zero(0, 5) && (words[5] === 0xffff || words[5] === 0)) return last32();
  if (zero(0, 4) && words[4] === 0xffff && words[5] === 0) return last32();
  if (words[0] === 0x64 && words[1] === 0xff9b && zero(2, 6)) return last32();
  if (words[0] === 0x64 && words[1] === 0xff9b && words[2] === 1) return zero(3, 6) ? last32() : null;
  if (words[0] === 0x2002) return v4(words[1]!, words[2]!);
  return undefined;
}

/** The eight 16-bit words of an IPv6 address (also with a dotted IPv4 tail), or undefined. */
function expandIPv6(address: string): number[] | undefined {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part ? part.split(':').map((w) => parseInt(w, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  const words = [...left, ...new Array<number>(missing).fill(0), ...right];
  return words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffff) ? words : undefined;
}

/** Is this IP address (v4 or v6) loopback, private, link-local, multicast or otherwise not public? */
export function isPrivateAddress(address: string): boolean {
  if (isIPv4(address)) return blocked.check(address, 'ipv4');
  if (!isIPv6(address)) return false;
  if (blocked.check(address, 'ipv6')) return true;
  const v4 = embeddedIPv4(address);
  if (v4 === null) return true; // an IPv4 that cannot be told cannot be let through
  return v4 !== undefined && blocked.check(v4, 'ipv4');
}

/** The problem with a URL's form (not where it points), or undefined when it is fine. */
export function urlFormProblem(url: string): string | undefined {
  if (url.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an absolute http or https URL';
  if (!parsed.hostname) return 'must name a host';
  if (parsed.username || parsed.password) return 'must not contain credentials (user:password@)';
  // An explicit port 0 (`:0`, `:00`) parses as the port "0"; nothing can listen there.
  if (parsed.port === '0') return 'must name a port from 1 to 65535';
  return undefined;
}

const isLocalhostName = (host: string) => /(^|\.)localhost\.?$/i.test(host);

async function resolveAll(host: string): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('DNS lookup timed out')), DNS_TIMEOUT_MS);
  });
  try {
    const addresses = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
    return addresses.map((a) => a.address);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Throws AppError BAD_USER_INPUT (field `url`) unless `url` is an absolute http(s) URL without
 * credentials, at most 2048 characters, and, when private targets are not allowed, its host is
 * not `localhost` and neither is nor resolves to (any of its addresses) a private, loopback,
 * link-local, CGNAT, multicast or reserved address. A host that does not resolve is refused too
 * when private targets are not allowed (its target cannot be checked).
 */
export async function assertDeliverableUrl(url: string, allowPrivate: boolean): Promise<void> {
  const problem = urlFormProblem(url);
  if (problem) throw badInput('url', problem);
  if (allowPrivate) return;
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  const refuse = (target: string) =>
    badInput('url', `must not target a private, loopback or link-local address (${target}); private targets are not allowed`);
  if (isLocalhostName(host)) throw refuse(host);
  if (isIPv4(host) || isIPv6(host)) {
    if (isPrivateAddress(host)) throw refuse(host);
    return;
  }
  let addresses: string[];
  try {
    addresses = await resolveAll(host);
  } catch {
    throw badInput('url', `host ${host} does not resolve`);
  }
  const bad = addresses.find(isPrivateAddress);
  if (bad) throw refuse(`${host} resolves to ${bad}`);
}
