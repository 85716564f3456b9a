// Writes the conformance kit's checks into the conformance guide, as tables between markers, so
// that the guide is whole wherever it is read (the installed package has no docs site to fill
// it in). `node scripts/build-guides.ts [--out DIR]`: the freshness test writes the guide into a
// temporary DIR instead, and compares it with the committed one.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { receiverChecks, serviceChecks } from "../src/conformance/index.ts";
import { guidesDir } from "./docs/pages.ts";
import { receiverChecksTable, serviceChecksTable, withWrittenSection } from "./lib/check-tables.ts";
import { root } from "./lib/paths.ts";

const { values } = parseArgs({ options: { out: { type: "string", default: path.join(root, guidesDir) } } });
const source = path.join(root, guidesDir, "conformance.md");
const target = path.join(path.resolve(values.out!), "conformance.md");

const checks = "src/conformance/checks/";
let guide = readFileSync(source, "utf8");
guide = withWrittenSection(guide, "service-checks", serviceChecksTable(serviceChecks), checks);
guide = withWrittenSection(guide, "receiver-checks", receiverChecksTable(receiverChecks), checks);
// Written only when changed: a build with nothing new leaves the file, and its time, alone.
if (!existsSync(target) || readFileSync(target, "utf8") !== guide) writeFileSync(target, guide);
console.log(`built ${path.relative(root, target)}`);
