// Users: the caller's own account, and the public data anyone may see of a user.
import type { Caller } from '../auth/caller.js';
import type { Database, Db } from '../../db/client.js';
import { assertPrecondition, notFound, type Precondition } from '../../errors.js';
import { lookupId } from '../../ids.js';
import type { User } from '../../generated/prisma/client.js';
import type { Write } from '../events/write.js';
import type { UpdateMeInput } from './inputs.js';
import { toMe, toPublicUser, type MeView, type PublicUserView } from './views.js';

export function createUserService({ db, query, write }: { db: Db; query: Database['query']; write: Write }) {
  return {
    /** The caller's account, as read with the credentials moments ago (no second query). */
    async me({ caller }: { caller: Caller }): Promise<MeView> {
      return toMe(caller.user);
    },

    /** `expected`: checked against the caller's view (as GET /me shows it) with their row locked. */
    async updateMe({ caller, input: { name }, expected }: { caller: Caller; input: UpdateMeInput; expected?: Precondition<MeView> }): Promise<MeView> {
      const user = await write(async (tx, record) => {
        if (expected) {
          const [current] = await tx.$queryRaw<User[]>`
            SELECT id, name, email, role, tier, "createdAt" FROM "User" WHERE id = ${caller.userId} FOR NO KEY UPDATE`;
          if (!current) throw notFound(`User ${caller.userId}`);
          assertPrecondition(expected, toMe({ ...current, createdAt: new Date(current.createdAt) }));
        }
        const updated = await tx.user.update({ where: { id: caller.userId }, data: { name } });
        await record('user.updated', { userId: updated.id });
        return updated;
      });
      return toMe(user);
    },

    /** Public data of many users at once, by id (unknown ids are absent). */
    async publicUsers({ ids }: { ids: readonly string[] }): Promise<Map<string, PublicUserView>> {
      const rows = await db.user.findMany({ where: { id: { in: [...ids] } }, select: { id: true, name: true, createdAt: true } });
      return new Map(rows.map((u) => [u.id, toPublicUser(u)]));
    },

    /** Public data only: id, name, joined. */
    async publicUser({ id }: { id: string }): Promise<PublicUserView> {
      // A hot public read (when the response cache misses): direct SQL, prepared (see Database.query).
      const [user] = await query<Pick<User, 'id' | 'name' | 'createdAt'>>(
        'SELECT id, name, "createdAt" FROM "User" WHERE id = $1',
        [lookupId('User', id)],
        { prepare: true },
      );
      if (!user) throw notFound(`User ${id}`);
      return toPublicUser(user);
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
