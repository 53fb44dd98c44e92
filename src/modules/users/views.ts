// A user as clients see it: the public face anyone may see, and the signed-in user's own view.
import { z } from 'zod';
import type { User } from '../../generated/prisma/client.js';

export const publicUserView = z.object({
  id: z.string(),
  name: z.string(),
  joined: z.iso.date().describe('YYYY-MM-DD (UTC)'),
});
export const meView = publicUserView.extend({
  email: z.string(),
  role: z.enum(['ADMIN', 'MEMBER']),
  tier: z.enum(['FREE', 'PRO', 'ENTERPRISE']),
});
export type PublicUserView = z.infer<typeof publicUserView>;
export type MeView = z.infer<typeof meView>;

export const joinedDate = (user: Pick<User, 'createdAt'>) => user.createdAt.toISOString().slice(0, 10);

export const toPublicUser = (u: Pick<User, 'id' | 'name' | 'createdAt'>): PublicUserView => ({
  id: u.id,
  name: u.name,
  joined: joinedDate(u),
});

export const toMe = (u: Pick<User, 'id' | 'name' | 'email' | 'role' | 'tier' | 'createdAt'>): MeView => ({
  id: u.id,
  name: u.name,
  email: u.email,
  joined: joinedDate(u),
  role: u.role,
  tier: u.tier,
});
