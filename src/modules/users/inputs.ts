// What the users module takes as input, parsed at the edges (REST router, GraphQL resolvers).
import { z } from 'zod';

/** A user's display name (also what sign-up takes, auth/schemas.ts). */
export const nameSchema = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');

export const updateMeInput = z.strictObject({ name: nameSchema });
export type UpdateMeInput = z.output<typeof updateMeInput>;
