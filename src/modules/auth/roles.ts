// The ADMIN rule, for services: one check that the caller may manage what only ADMINs manage.
import { forbidden } from '../../errors.js';

/** Throws FORBIDDEN unless the caller is an ADMIN. */
export function assertAdmin(caller: { readonly role: string }): void {
  if (caller.role !== 'ADMIN') throw forbidden();
}
