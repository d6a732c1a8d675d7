import { chmodSync, lstatSync, mkdirSync } from "node:fs";
import { DatabaseError } from "../location.js";

// A directory that only this user can enter. It is created 0700; if it exists, it must be a real
// directory owned by this user (another user could have created it first in a shared temp dir to
// watch or replace what goes in), and is made 0700 again if its mode was widened.

export function ensureOwnerOnlyDir(dir: string): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const stat = lstatSync(dir);
  const uid = process.getuid?.();
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) {
    throw new DatabaseError(`${dir} is not a directory of this user's; remove it (the embedded database's socket goes there)`);
  }
  // mkdir applies the umask, and an existing directory may have been widened.
  if ((stat.mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
}
