import { monotonicFactory } from 'ulidx';

const next = monotonicFactory();

export type IdPrefix = 'usr' | 'les' | 'doc' | 'ses' | 'rt' | 'evt' | 'whk' | 'dlv' | 'key';

/** Stripe-style identifiers: a type prefix and a ULID, so they sort by creation time. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${next().toLowerCase()}`;
}
