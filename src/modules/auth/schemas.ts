import { z } from 'zod';
import { meView, nameSchema } from '../users/service.js';

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

export const tokenPair = z.object({
  token: z.string().describe('Access token (JWT), sent as `Authorization: Bearer <token>`'),
  expiresIn: z.number().int().describe('Lifetime of `token` in seconds (exp - iat)'),
  refreshToken: z.string(),
  refreshExpiresIn: z.number().int().describe('Lifetime of `refreshToken` in seconds'),
});
export const registerResult = tokenPair.extend({ user: meView });

export type TokenPair = z.infer<typeof tokenPair>;
