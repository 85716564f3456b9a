// Why a database file could not be opened, in words that say what to do: SQLite itself says
// only "unable to open database file" or "attempt to write a readonly database". Asked once
// SQLite has failed, of the file system as this process meets it: a folder's mode bits do not
// stop root, a read-only file system or a folder such as /proc does, and the answer is the same.
import { randomBytes } from "node:crypto";
import { closeSync, openSync, rmSync, statSync, type Stats } from "node:fs";
import path from "node:path";

/** SQLite's result code of a file that is not a database. */
const SQLITE_NOTADB = 26;

/** The error to throw for `file`, which SQLite failed to open or write with `error`. */
export function databaseOpenError(file: string, error: Error & { errcode?: number }): Error {
  return new Error(`The sandbox cannot open its database ${file}: ${reasonOf(path.resolve(file), error)}.`, { cause: error });
}

/** What a file system error says, without the path Node appends: "EACCES: permission denied". */
const said = (error: unknown) => (error as Error).message.split(",")[0]!;

function statOf(file: string): Stats | NodeJS.ErrnoException {
  try {
    return statSync(file);
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
}

function reasonOf(file: string, error: Error & { errcode?: number }): string {
  if (error.errcode === SQLITE_NOTADB) return "it is not a SQLite database; give the path of a new file, or of a database the sandbox made";
  const folder = path.dirname(file);
  const stats = statOf(file);
  if (stats instanceof Error) {
    if (stats.code === "ENOENT" || stats.code === "ENOTDIR") {
      // The nearest folder above that exists, or the file standing where a folder should be.
      let above = folder;
      let found = statOf(above);
      while (found instanceof Error && path.dirname(above) !== above) found = statOf((above = path.dirname(above)));
      if (!(found instanceof Error) && !found.isDirectory()) return `${above} is a file, not a folder; give a path in a folder`;
      if (above !== folder) return `the folder ${folder} does not exist; create it, or give a path in a folder that exists`;
    } else return `it cannot be reached (${said(stats)}); give a path this user can reach`;
  } else if (stats.isDirectory()) return `it is a folder, not a file; give the path of a file, such as ${path.join(file, "sandbox.db")}`;
  else {
    const refused = refusal(() => openSync(file, "r+"));
    if (refused) return `the file is read-only for this process (${refused}); make it writable, or give another path`;
  }
  // SQLite creates the file, and beside it its -wal and -shm files, in the folder.
  const probe = path.join(folder, `.${path.basename(file)}.${randomBytes(6).toString("hex")}.probe`);
  const refused = refusal(
    () => openSync(probe, "wx"),
    () => rmSync(probe, { force: true }),
  );
  if (refused)
    return (
      `the folder ${folder} is read-only for this process (${refused}), ` +
      `and SQLite must create ${stats instanceof Error ? "the file and " : ""}its -wal and -shm files in it; ` +
      "give a path in a writable folder"
    );
  return error.message;
}

/** What the file system said to `open`, or undefined when it opened (then closed, and `cleanUp` run). */
function refusal(open: () => number, cleanUp = () => {}): string | undefined {
  try {
    closeSync(open());
    cleanUp();
    return undefined;
  } catch (error) {
    return said(error);
  }
}
