// The checks .ci/run makes on Vitest's JSON report: a run that ran nothing, lost a file, or
// failed anything must not pass, whatever Vitest's exit status said.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { countLine, reportProblems, testFiles, type VitestReport } from "../../scripts/ci/test-report.ts";

const files = ["test/a.test.ts", "test/b/c.test.ts"];
const result = (file: string, status = "passed", message = "") => ({ name: path.join(root, file), status, message });
const report = (over: Partial<VitestReport> = {}): VitestReport => ({
  numPassedTests: 3,
  numFailedTests: 0,
  numPendingTests: 0,
  numTodoTests: 0,
  numFailedTestSuites: 0,
  testResults: files.map((f) => result(f)),
  ...over,
});

describe("Vitest report checks", () => {
  it("pass a run in which every file ran, tests ran and none failed", () => {
    expect(reportProblems(report(), files)).toEqual([]);
  });

  it("fail a run that ran nothing, as when a global setup hangs and Vitest exits 0", () => {
    expect(reportProblems(report({ numPassedTests: 0, testResults: [] }), files)).toEqual([
      "test/a.test.ts is not in Vitest's report: it did not run.",
      "test/b/c.test.ts is not in Vitest's report: it did not run.",
      "No test ran.",
    ]);
  });

  it("fail a run that left one file out, naming it", () => {
    expect(reportProblems(report({ testResults: [result(files[0]!)] }), files)).toEqual([
      "test/b/c.test.ts is not in Vitest's report: it did not run.",
    ]);
  });

  it("fail a run with a failed test, naming the file and the first line of its message", () => {
    const testResults = [result(files[0]!), result(files[1]!, "failed", "expected 1 to be 2\n  at line 3")];
    expect(reportProblems(report({ numFailedTests: 1, numFailedTestSuites: 1, testResults }), files)).toEqual([
      "1 test(s) failed.",
      "test/b/c.test.ts failed: expected 1 to be 2",
    ]);
  });

  it("fail a run in which a file failed outside any test (an import error, a failing hook)", () => {
    const testResults = [result(files[0]!), result(files[1]!, "failed", "Cannot find module './x'")];
    expect(reportProblems(report({ numFailedTestSuites: 1, testResults }), files)).toEqual([
      "test/b/c.test.ts failed: Cannot find module './x'",
      "1 test file(s) failed outside any test.",
    ]);
  });

  it("count passed, failed and skipped (todo included) tests in one plain line", () => {
    expect(countLine(report({ numPassedTests: 550, numFailedTests: 2, numPendingTests: 3, numTodoTests: 1 }))).toBe(
      "550 passed, 2 failed, 4 skipped",
    );
  });

  it("list the repository's test files, this one included, and no fixture of the package's tests", () => {
    const all = testFiles();
    expect(all).toContain("test/ci/test-report.test.ts");
    expect(all).toContain("test/package/tarball.test.ts");
    expect(all.filter((f) => f.startsWith("test/package/support/"))).toEqual([]);
    expect(all).toEqual([...all].sort());
  });
});
