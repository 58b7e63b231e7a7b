import { strict as assert } from "node:assert";
import * as path from "node:path";
import { describe, it } from "node:test";
import {
  buildTree,
  codePointColumnToUtf16,
  FileNode,
  FolderNode,
  resolveReportPath,
  ScanReportJson,
  totals,
  TreeNode,
} from "../src/reportModel";

const root = path.resolve("/work/project");

function finding(line: number, category: string, severity: string, torch: string | null, column = 5) {
  return {
    line,
    column,
    end_line: line,
    end_column: column + 10,
    torch_api: torch,
    mindspore_api: torch ? torch.replace("torch", "mindspore") : null,
    category,
    rule: category === "missing" ? "MSM200" : category === "differences" ? "MSM101" : "MSM100",
    severity,
    message: `message ${line}`,
    fixable: category !== "missing",
  };
}

const report: ScanReportJson = {
  root,
  files: [
    {
      path: "train.py",
      findings: [
        finding(9, "consistent", "hint", "torch.abs"),
        finding(3, "differences", "information", "torch.nn.Conv2d"),
        finding(3, "differences", "information", "torch.flatten", 2),
        finding(20, "missing", "warning", "torch.cuda.amp.GradScaler"),
      ],
    },
    { path: "src/models/resnet.py", findings: [finding(12, "differences", "information", "torch.nn.BatchNorm2d")] },
    { path: "src/models/blocks.py", findings: [finding(1, "consistent", "hint", "torch.relu")] },
    { path: "src/clean.py", findings: [] },
    { path: "src/broken.py", error: "Syntax error at line 3", findings: [] },
  ],
  summary: {},
};

function labels(nodes: TreeNode[]): string[] {
  return nodes.map((n) => {
    switch (n.kind) {
      case "folder":
      case "file":
        return `${n.kind}:${n.name}(${n.count})`;
      case "category":
        return `category:${n.category}(${n.count})`;
      case "finding":
        return `finding:${n.finding.line}:${n.finding.column}`;
    }
  });
}

describe("buildTree", () => {
  const tree = buildTree(report, root);

  it("puts folders before files, compacts single-folder chains and counts findings", () => {
    assert.deepEqual(labels(tree), ["folder:src(2)", "file:train.py(4)"]);
    const src = tree[0] as FolderNode;
    assert.equal(src.fsPath, path.join(root, "src"));
    assert.deepEqual(labels(src.children), ["folder:models(2)", "file:broken.py(0)"]);
    const models = src.children[0] as FolderNode;
    assert.deepEqual(labels(models.children), ["file:blocks.py(1)", "file:resnet.py(1)"]);
  });

  it("keeps files with an error and drops files without findings", () => {
    const broken = (tree[0] as FolderNode).children[1] as FileNode;
    assert.equal(broken.error, "Syntax error at line 3");
    assert.equal(broken.fsPath, path.join(root, "src", "broken.py"));
    assert.deepEqual(broken.children, []);
  });

  it("groups a file's findings by category (most actionable first) sorted by position", () => {
    const train = tree[1] as FileNode;
    assert.equal(train.fsPath, path.join(root, "train.py"));
    assert.deepEqual(labels(train.children), ["category:missing(1)", "category:differences(2)", "category:consistent(1)"]);
    assert.deepEqual(labels(train.children[1].children), ["finding:3:2", "finding:3:5"]);
  });

  it("compacts a chain of folders that only hold one folder", () => {
    const deep = buildTree({ files: [{ path: "a/b/c/x.py", findings: [finding(1, "sparse", "warning", null)] }] }, root);
    assert.deepEqual(labels(deep), ["folder:a/b/c(1)"]);
    assert.equal((deep[0] as FolderNode).fsPath, path.join(root, "a", "b", "c"));
  });

  it("filters by category and severity, updating counts and dropping emptied files", () => {
    const filtered = buildTree(report, root, { categories: ["differences"] });
    assert.deepEqual(labels(filtered), ["folder:src(1)", "file:train.py(2)"]);
    assert.deepEqual(labels((filtered[0] as FolderNode).children), ["folder:models(1)", "file:broken.py(0)"]);
    const warnings = buildTree(report, root, { severities: ["warning"] });
    assert.deepEqual(labels(warnings), ["folder:src(0)", "file:train.py(1)"]);
    assert.deepEqual(labels((warnings[0] as FolderNode).children), ["file:broken.py(0)"]);
  });

  it("places files outside the root under their own absolute folder", () => {
    const outside = path.resolve("/elsewhere/lib/util.py");
    const nodes = buildTree({ files: [{ path: outside, findings: [finding(2, "missing", "warning", "torch.x")] }] }, root);
    assert.deepEqual(labels(nodes), [`folder:${path.dirname(outside)}(1)`]);
    assert.equal(((nodes[0] as FolderNode).children[0] as FileNode).fsPath, outside);
  });

  it("returns no nodes for an empty report", () => {
    assert.deepEqual(buildTree({ files: [] }, root), []);
  });
});

describe("totals", () => {
  it("counts files with findings, findings, severities and categories", () => {
    assert.deepEqual(totals(report), {
      files: 3,
      findings: 6,
      bySeverity: { hint: 2, information: 3, warning: 1 },
      byCategory: { consistent: 2, differences: 3, missing: 1 },
    });
    assert.equal(totals(report, { severities: ["warning"] }).findings, 1);
  });
});

describe("resolveReportPath", () => {
  it("joins POSIX relative paths to the root and keeps absolute ones", () => {
    assert.equal(resolveReportPath("a/b.py", root), path.join(root, "a", "b.py"));
    assert.equal(resolveReportPath(path.join(root, "z.py"), "/other"), path.join(root, "z.py"));
  });
});

describe("codePointColumnToUtf16", () => {
  it("converts 1-based code-point columns to 0-based UTF-16 offsets", () => {
    assert.equal(codePointColumnToUtf16("x = torch.abs(y)", 5), 4);
    // "😀" is one code point but two UTF-16 units.
    assert.equal(codePointColumnToUtf16("s='😀'; torch.abs(s)", 9), 9);
    assert.equal(codePointColumnToUtf16("中文 = torch.abs(x)", 6), 5);
    assert.equal(codePointColumnToUtf16("ab", 5), 4);
    assert.equal(codePointColumnToUtf16("", 1), 0);
  });
});
