// Reads Vitest's JSON report for .ci/run, so that CI cannot pass on nothing: a run that hung
// in a global setup, or lost a file to an import error, still exits 0 from some runners.
//   node scripts/ci/test-report.ts check <report.json>   fails unless every test file under
//                                                        test/ ran, at least one test ran, and
//                                                        none failed
//   node scripts/ci/test-report.ts count <report.json>   prints `N passed, N failed, N skipped`
import { existsSync, globSync, readFileSync } from "node:fs";
import path from "node:path";
import { root } from "../lib/paths.ts";

/** The part of Vitest's JSON report (Jest's format) that these checks read. */
export interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  numFailedTestSuites: number;
  testResults: Array<{ name: string; status: string; message?: string }>;
}

/** Every test file of the repository, relative to its root; fixtures under test/ are no test files. */
export function testFiles(): string[] {
  return globSync("test/**/*.test.ts", { cwd: root, exclude: (p) => p.startsWith("test/package/support/fixtures/") }).sort();
}

/** What is wrong with a run, one line each; empty when it may pass. */
export function reportProblems(report: VitestReport, files: readonly string[]): string[] {
  const problems: string[] = [];
  const ran = new Set(report.testResults.map((r) => path.relative(root, r.name)));
  for (const file of files) if (!ran.has(file)) problems.push(`${file} is not in Vitest's report: it did not run.`);
  if (report.numPassedTests + report.numFailedTests === 0) problems.push("No test ran.");
  if (report.numFailedTests > 0) problems.push(`${report.numFailedTests} test(s) failed.`);
  for (const result of report.testResults)
    if (result.status === "failed" && result.message)
      problems.push(`${path.relative(root, result.name)} failed: ${result.message.split("\n")[0]}`);
  if (report.numFailedTestSuites > 0 && report.numFailedTests === 0)
    problems.push(`${report.numFailedTestSuites} test file(s) failed outside any test.`);
  return problems;
}

/** The one line a CI log ends with. */
export const countLine = (r: VitestReport) =>
  `${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`;

if (import.meta.main) {
  const [command, file] = process.argv.slice(2);
  if (!file || (command !== "check" && command !== "count")) {
    console.error("usage: node scripts/ci/test-report.ts check|count <vitest-report.json>");
    process.exit(2);
  }
  if (!existsSync(file)) {
    console.error(`${file} does not exist: Vitest wrote no report.`);
    if (command === "count") console.log("0 passed, 0 failed, 0 skipped");
    process.exit(1);
  }
  const report = JSON.parse(readFileSync(file, "utf8")) as VitestReport;
  if (command === "count") console.log(countLine(report));
  else {
    const problems = reportProblems(report, testFiles());
    for (const p of problems) console.error(`✗ ${p}`);
    process.exit(problems.length ? 1 : 0);
  }
}
