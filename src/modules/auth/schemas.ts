// The auth module's shapes: the input of login, registration and refresh (parsed at the edge,
// once), and the token pair and session views both transports answer with.
import { z } from 'zod';
import { nameSchema } from '../users/inputs.js';
import { meView } from '../users/views.js';

// The custom message is for a malformed address only: a missing or non-string e-mail keeps Zod's
// type message, which the validator turns into `email: is required`.
export const emailSchema = z
  .email({ error: (issue) => (issue.code === 'invalid_format' ? 'must be an e-mail address' : undefined) })
  .max(254, 'must be at most 254 characters')
  .transform((e) => e.toLowerCase());
export const passwordSchema = z.string().min(8, 'must be at least 8 characters').max(256, 'must be at most 256 characters');

export const loginInput = z.strictObject({ email: emailSchema, password: z.string().min(1, 'must not be empty').max(256) });
export const registerInput = z.strictObject({ email: emailSchema, password: passwordSchema, name: nameSchema });
export const refreshInput = z.strictObject({ refreshToken: z.string().min(1, 'must not be empty').max(512) });
export type LoginInput = z.output<typeof loginInput>;
export type RegisterInput = z.output<typeof registerInput>;
export type RefreshInput = z.output<typeof refreshInput>;

export const tokenPair = z.object({
  token: z.string().describe('Access token (JWT), sent as `Authorization: Bearer <token>`'),
  expiresIn: z.number().int().describe('Lifetime of `token` in seconds (exp - iat)'),
  refreshToken: z.string(),
  refreshExpiresIn: z.number().int().describe('Lifetime of `refreshToken` in seconds'),
});
export const registerResult = tokenPair.extend({ user: meView });
export type TokenPair = z.infer<typeof tokenPair>;

export const sessionView = z.object({
  id: z.string().describe('`ses_…`'),
  createdAt: z.iso.datetime().describe('ISO 8601 UTC: the login (or registration) that started it'),
  lastUsedAt: z.iso.datetime().nullable().describe('ISO 8601 UTC: when one of its tokens was last used, updated at most once a minute'),
  userAgent: z.string().nullable().describe('The User-Agent of the login that started it'),
  current: z.boolean().describe('Whether this is the session of the token making the request'),
});
export type SessionView = z.infer<typeof sessionView>;
export const sessionList = z.object({ items: z.array(sessionView) });
