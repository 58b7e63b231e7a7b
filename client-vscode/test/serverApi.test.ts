import { strict as assert } from "node:assert";
import * as path from "node:path";
import { describe, it } from "node:test";
import { ReportFinding } from "../src/reportModel";
import { withCsp } from "../src/reportWebview";
import { isReport, mergeReports, suggestions } from "../src/serverApi";

const root = path.resolve("/proj");
const f = (line: number): ReportFinding => ({
  line, column: 1, end_line: line, end_column: 5, torch_api: "torch.abs", mindspore_api: "mindspore.ops.abs",
  category: "consistent", rule: "MSM100", severity: "hint", message: "m", fixable: true,
});

describe("mergeReports", () => {
  it("replaces a rescanned file's entry, whatever folder the file scan used as its root", () => {
    const project = { root, files: [{ path: "a/x.py", findings: [f(1), f(2)] }, { path: "b.py", findings: [f(3)] }] };
    const single = { root: path.join(root, "a"), files: [{ path: "x.py", findings: [f(9)] }] };
    const merged = mergeReports(project, single, root, path.join(root, "a"));
    assert.deepEqual(merged.files, [{ path: "a/x.py", findings: [f(9)] }, { path: "b.py", findings: [f(3)] }]);
    assert.equal(merged.root, root);
  });
  it("adds a file the project report did not have", () => {
    const project = { root, files: [{ path: "b.py", findings: [f(3)] }] };
    const merged = mergeReports(project, { files: [{ path: "new.py", findings: [] }] }, root, path.join(root, "c"));
    assert.deepEqual(merged.files.map((x) => x.path), ["b.py", "c/new.py"]);
  });
  it("starts a report when there is none", () => {
    const merged = mergeReports(undefined, { files: [{ path: "x.py", findings: [f(1)] }] }, root, root);
    assert.deepEqual(merged, { root, files: [{ path: "x.py", findings: [f(1)] }] });
  });
});

describe("lookup results", () => {
  it("accepts suggestions as names or objects", () => {
    assert.deepEqual(
      suggestions({ status: "not_found", torch_api: "torch.abss", suggestions: ["torch.abs", { torch_api: "torch.absolute", mindspore_api: "mindspore.ops.absolute" }] }),
      [{ torch_api: "torch.abs" }, { torch_api: "torch.absolute", mindspore_api: "mindspore.ops.absolute" }],
    );
    assert.deepEqual(suggestions({ status: "mapped", torch_api: "torch.abs" }), []);
  });
  it("tells reports from other results", () => {
    assert.equal(isReport({ files: [], summary: {} }), true);
    assert.equal(isReport({ error: "x" }), false);
    assert.equal(isReport(null), false);
  });
});

describe("withCsp", () => {
  const csp =
    "default-src 'none'; img-src vscode-webview://x data:; style-src vscode-webview://x 'unsafe-inline'; " +
    "font-src vscode-webview://x; script-src 'none'; frame-src 'none'; form-action 'none'; base-uri 'none'";
  it("inserts the policy first in <head>", () => {
    const html = '<!DOCTYPE html><html><head lang="en"><title>r</title></head><body></body></html>';
    assert.equal(
      withCsp(html, "vscode-webview://x"),
      `<!DOCTYPE html><html><head lang="en">\n<meta http-equiv="Content-Security-Policy" content="${csp}"><title>r</title></head><body></body></html>`,
    );
  });
  it("adds a head to a fragment", () => {
    assert.equal(
      withCsp("<!doctype html><p>x</p>", "vscode-webview://x"),
      `<!doctype html><head><meta http-equiv="Content-Security-Policy" content="${csp}"></head><p>x</p>`,
    );
  });
});
