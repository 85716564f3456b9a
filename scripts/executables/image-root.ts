// The files of the sandbox's container image, which the Containerfile copies in: the executable
// in /usr/local/bin under its three names, the shared libraries it loads as ldd finds them on this
// machine, a passwd and a group naming its user (10001, not root), /tmp; and apart, the folder that
// becomes /data, its user's own (COPY --chown gives a folder it makes, not one that is there, to
// the user). Nothing comes from a registry: the image is these two folders.
import { execFile } from "node:child_process";
import { chmodSync, copyFileSync, linkSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { COMMANDS } from "./build.ts";

const exec = promisify(execFile);

/** The user the image runs as: no name or id of the system's, so that a volume it writes is plainly its own. */
export const IMAGE_USER = { name: "payin", uid: 10001, gid: 10001 };

/** The absolute paths of the shared libraries `file` loads, the loader included, as ldd lists them. */
export async function sharedLibraries(file: string): Promise<string[]> {
  const { stdout } = await exec("ldd", [file]);
  // `libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x…)`, and the loader as `/lib64/ld-linux-x86-64.so.2 (0x…)`; vdso is no file.
  return [...stdout.matchAll(/^\s*(?:\S+ => )?(\/\S+) \(0x[0-9a-f]+\)$/gm)].map((m) => m[1]!);
}

/** A hard link, or a copy where `to` is on another file system than `from`. */
function linkOrCopy(from: string, to: string) {
  try {
    linkSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    copyFileSync(from, to);
  }
}

/**
 * Stages the image's files around the executable `executable`, in `dist` (dist/ or a test's
 * folder): `image-root/`, the image's /, and `image-data/`, its /data. Both are emptied first.
 */
export async function stageImage(executable: string, dist: string): Promise<{ root: string; data: string; libraries: string[] }> {
  const [dir, data] = [path.join(dist, "image-root"), path.join(dist, "image-data")];
  for (const folder of [dir, data]) rmSync(folder, { recursive: true, force: true });
  const bin = path.join(dir, "usr", "local", "bin");
  mkdirSync(bin, { recursive: true });
  // Hard links, as in dist/: one file in the image under three names (the executable chooses by its name).
  for (const command of COMMANDS) linkOrCopy(executable, path.join(bin, `payin-${command}`));
  const libraries = await sharedLibraries(executable);
  for (const library of libraries) {
    // Each at the path the executable asks for, the link's target copied (/lib64/ld-linux-x86-64.so.2 is a link).
    mkdirSync(path.join(dir, path.dirname(library)), { recursive: true });
    copyFileSync(library, path.join(dir, library));
  }
  const etc = path.join(dir, "etc");
  mkdirSync(etc);
  const { name, uid, gid } = IMAGE_USER;
  writeFileSync(
    path.join(etc, "passwd"),
    `root:x:0:0:root:/root:/sbin/nologin\n${name}:x:${uid}:${gid}:payin sandbox:/data:/sbin/nologin\n`,
  );
  writeFileSync(path.join(etc, "group"), `root:x:0:\n${name}:x:${gid}:\n`);
  // Names are looked up in /etc/hosts, which the container's runtime provides, then by DNS (--database's host).
  writeFileSync(path.join(etc, "nsswitch.conf"), "hosts: files dns\n");
  // /tmp is anyone's, as everywhere; /data, for the SQLite file, starts empty.
  mkdirSync(path.join(dir, "tmp"));
  chmodSync(path.join(dir, "tmp"), 0o1777);
  mkdirSync(data);
  return { root: dir, data, libraries };
}
