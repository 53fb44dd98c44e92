// Short digests of text, for entity tags and cache keys: one hash function for every one of them.
import { createHash } from 'node:crypto';

/** The SHA-256 of `text` in base64url (or hex), cut to `length` characters (default: all of it). */
export const digest = (text: string, length?: number, encoding: 'base64url' | 'hex' = 'base64url'): string =>
  createHash('sha256').update(text).digest(encoding).slice(0, length);

/**
 * The strong entity tag of a JSON body (RFC 9110 8.8.3): a digest of its exact bytes, so two
 * answers share a tag exactly when they are the same bytes, whoever made them.
 */
export const strongEntityTag = (body: string): string => `"${digest(body, 22)}"`;
