// What an API key is: `lp_` + 32 random bytes (base64url), shown once at creation and stored only
// as its SHA-256, with a short prefix kept to tell keys apart.
import { createHash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'lp_';
/** How many characters after `lp_` are kept for display. */
export const DISPLAY_PREFIX_LENGTH = 8;

/** SHA-256 hex: what is stored and looked up. */
export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

export const newApiKey = () => `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;

/** The part of a key kept for display. */
export const displayPrefix = (key: string) => key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + DISPLAY_PREFIX_LENGTH);
