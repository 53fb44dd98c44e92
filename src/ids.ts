import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulidx';
import { notFound } from './errors.js';

// ulidx draws one random value per character; by default each is its own getRandomValues call.
// These come from a pool of cryptographic random bytes refilled 4 KB at a time: a byte / 256 is
// uniform over [0, 1) in steps of 1/256, and 256 is a multiple of the 32 characters of the alphabet.
const pool = new Uint8Array(4096);
let drawn = pool.length;
function random(): number {
  if (drawn === pool.length) {
    randomFillSync(pool);
    drawn = 0;
  }
  return pool[drawn++]! / 256;
}

const next = monotonicFactory(random);

export type IdPrefix = 'usr' | 'les' | 'crs' | 'doc' | 'ses' | 'rt' | 'evt' | 'whk' | 'dlv' | 'key';

/** Stripe-style identifiers: a type prefix and a ULID, so they sort by creation time. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${next().toLowerCase()}`;
}

/** What newId makes: one of the prefixes above, `_`, and a lower-case ULID. */
const ID = /^([a-z]{2,3})_[0-9a-z]{26}$/;

/** Whether `value` is an id this service could have made (with `prefix`, when given). */
export function isId(value: string, prefix?: IdPrefix): boolean {
  const match = ID.exec(value);
  return match !== null && (prefix === undefined || match[1] === prefix);
}

/** Longer than any id this service makes (a prefix and a 26-character ULID), with room to spare. */
const MAX_ID_LENGTH = 64;

/**
 * What no id holds: a C0 control character or DEL, or a surrogate code point (with the `u` flag a
 * surrogate pair is one astral code point, so only a lone surrogate matches `\p{Cs}`).
 */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const UNUSABLE = /[\u0000-\u001f\u007f]|\p{Cs}/u;

/**
 * The caller's id, to look up; or at once a 404 naming `what` (not the id) for an id no row can
 * have: a NUL byte (PostgreSQL text cannot hold one: the query would fail, a 500), another
 * control character, a lone surrogate (echoed in a message, it would make JSON that strict
 * parsers refuse), or a huge string. Such an id is neither looked up nor echoed back.
 */
export function lookupId(what: string, id: string): string {
  if (id.length > MAX_ID_LENGTH || UNUSABLE.test(id)) throw notFound(what);
  return id;
}
