// Every file the formatter formats keeps to its width: what it cannot break (a long string, a
// test's title, a comment) is broken by hand, so that no line needs a wide screen.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";

const width = Number(/"lineWidth":\s*(\d+)/.exec(readFileSync(path.join(root, "biome.jsonc"), "utf8"))![1]);
/** What biome.jsonc leaves out: files tools write, and Markdown and HTML, which it does not format. */
const formatted = /\.(ts|mts|cts|js|mjs|cjs|json|jsonc|css|ya?ml)$/;
const written = new RegExp(
  [
    String.raw`^(generated\/|test\/package\/node-floor\/|test\/mutation\/)`,
    String.raw`(^|\/)(last-release\.json|package-lock\.json)$`,
    String.raw`\/__snapshots__\/`,
  ].join("|"),
);

/** Each line of a formatted file longer than the width, as `file:line (length)`. */
export function overWide(files: ReadonlyArray<[string, string]>, max: number): string[] {
  return files.flatMap(([file, text]) =>
    text.split("\n").flatMap((line, i) => ([...line].length > max ? [`${file}:${i + 1} (${[...line].length})`] : [])),
  );
}

describe("the formatter's width", () => {
  it("is held by every line of every formatted file", () => {
    const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" })
      .split("\n")
      .filter((file) => formatted.test(file) && !written.test(file));
    expect(files.length).toBeGreaterThan(300);
    expect(
      overWide(
        files.map((file) => [file, readFileSync(path.join(root, file), "utf8")]),
        width,
      ),
    ).toEqual([]);
  });

  it("counts characters, not bytes, and names the line", () => {
    expect(overWide([["a.ts", `${"é".repeat(width)}\n${"x".repeat(width + 1)}`]], width)).toEqual([`a.ts:2 (${width + 1})`]);
  });
});
