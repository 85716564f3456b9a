// `npm run package`: compiles dist/, stages the published package in dist/package/ and packs it
// into dist/. Publish either: `npm publish dist/package` or `npm publish dist/<tarball>`. The
// repository's own package.json is private, so that a publish from the root cannot ship it.
// Then the single executables of payin-sandbox, payin-conformance and payin-listen for this
// machine's platform (dist/payin-<command>-<platform>-<arch>), which the tarball does not hold,
// and the files of the sandbox's image beside them (dist/image-root/, dist/image-data/: the
// Containerfile's).
import path from "node:path";
import { buildExecutables } from "./executables/build.ts";
import { stageImage } from "./executables/image-root.ts";
import { packPackage } from "./lib/pack.ts";
import { root } from "./lib/paths.ts";

const dist = path.join(root, "dist");
const started = performance.now();
const packed = await packPackage({ stage: path.join(dist, "package"), destination: dist });
const kib = Math.round(packed.size / 1024);
console.log(`staged dist/package/ and packed ${path.relative(root, packed.tarball)}: ${packed.files.length} files, ${kib} KiB`);
const executables = await buildExecutables(dist);
const names = Object.values(executables.files).map((file) => path.relative(root, file));
const mib = (executables.bytes / 2 ** 20).toFixed(1);
console.log(`built ${names.join(", ")}: one executable of ${mib} MiB under three names, in ${(executables.ms / 1000).toFixed(1)} s`);
const image = await stageImage(executables.files.sandbox, dist);
console.log(
  `staged dist/image-root/ and dist/image-data/ for the Containerfile: the executable and ${image.libraries.length} shared libraries`,
);
console.log(`npm run package: ${((performance.now() - started) / 1000).toFixed(1)} s`);
