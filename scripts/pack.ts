// `npm run package`: compiles dist/, stages the published package in dist/package/ and packs it
// into dist/. Publish either: `npm publish dist/package` or `npm publish dist/<tarball>`. The
// repository's own package.json is private, so that a publish from the root cannot ship it.
import path from "node:path";
import { packPackage } from "./lib/pack.ts";
import { root } from "./lib/paths.ts";

const dist = path.join(root, "dist");
const packed = await packPackage({ stage: path.join(dist, "package"), destination: dist });
const kib = Math.round(packed.size / 1024);
console.log(`staged dist/package/ and packed ${path.relative(root, packed.tarball)}: ${packed.files.length} files, ${kib} KiB`);
