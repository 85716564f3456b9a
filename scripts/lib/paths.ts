import { fileURLToPath } from "node:url";
import path from "node:path";

/** The repository root, wherever a script or test is run from. */
export const root = fileURLToPath(new URL("../../", import.meta.url));

/** The committed output of the build. */
export const generatedDir = path.join(root, "generated");

/** A CLI installed in node_modules, runnable without npm's PATH. */
export const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

/** The oldest Node.js the package supports, installed by scripts/install-node-floor.ts for the consumer test. */
export const floorNode = path.join(root, "test", "package", "node-floor", "node_modules", "node", "bin", "node");
