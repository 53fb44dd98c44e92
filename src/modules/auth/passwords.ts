// Passwords are stored only as argon2id hashes (OWASP's first choice), never in the clear.
import { hash, verify } from '@node-rs/argon2';

export const hashPassword = (password: string) => hash(password);

// Checked against when the e-mail is unknown, so both failures take the same time.
const decoy = hash('decoy-password-for-unknown-accounts');

export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  try {
    return await verify(stored ?? (await decoy), password);
  } catch {
    return false;
  }
}
