import { strict as assert } from "node:assert";
import * as path from "node:path";
import { describe, it } from "node:test";
import * as vscode from "vscode";
import { ScanReportJson, TreeNode } from "../src/reportModel";
import { REVEAL_COMMAND, ScanTreeProvider } from "../src/treeView";

const root = path.resolve("/proj");
const report: ScanReportJson = {
  root,
  files: [
    {
      path: "net/model.py",
      findings: [
        {
          line: 4, column: 9, end_line: 4, end_column: 24, torch_api: "torch.nn.Conv2d",
          mindspore_api: "mindspore.nn.Conv2d", category: "differences", rule: "MSM101",
          severity: "information", message: "Conv2d: padding differs", fixable: true,
        },
        {
          line: 7, column: 1, end_line: 7, end_column: 30, torch_api: null, mindspore_api: null,
          category: "framework_pattern", rule: "MSM501", severity: "warning",
          message: "Rewrite the training step", fixable: false,
        },
      ],
    },
  ],
};

describe("ScanTreeProvider", () => {
  it("is empty until a report arrives, then notifies and shows folder → file → category → finding", () => {
    const tree = new ScanTreeProvider();
    const fired: unknown[] = [];
    tree.onDidChangeTreeData((e) => fired.push(e));
    assert.equal(tree.hasReport, false);
    assert.deepEqual(tree.getChildren(), []);
    assert.equal(tree.summary(), undefined);

    tree.setReport(report, root);
    assert.equal(fired.length, 1);
    assert.equal(tree.summary(), "2 findings in 1 files");

    const [folder] = tree.getChildren();
    const folderItem = tree.getTreeItem(folder);
    assert.equal(folderItem.label, "net (2)");
    assert.equal(folderItem.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);

    const [file] = tree.getChildren(folder);
    const fileItem = tree.getTreeItem(file);
    assert.equal(fileItem.label, "model.py (2)");
    assert.equal(fileItem.contextValue, "file");
    assert.equal(fileItem.resourceUri?.fsPath, path.join(root, "net", "model.py"));

    const categories = tree.getChildren(file);
    assert.deepEqual(
      categories.map((c) => tree.getTreeItem(c).label),
      ["With differences (1)", "Framework pattern (1)"],  // the server's words (protocol.ts)
    );
    const [conv] = tree.getChildren(categories[0]);
    const item = tree.getTreeItem(conv);
    assert.equal(item.label, "torch.nn.Conv2d → mindspore.nn.Conv2d");
    assert.equal(item.description, "Ln 4, Col 9 · MSM101");
    assert.equal(item.contextValue, "finding.fixable");
    assert.equal((item.iconPath as vscode.ThemeIcon).id, "info");
    assert.deepEqual(item.command?.command, REVEAL_COMMAND);
    assert.deepEqual(item.command?.arguments, [path.join(root, "net", "model.py"), 4, 9, 4, 24]);
    assert.deepEqual(tree.getChildren(conv as TreeNode), []);

    const [pattern] = tree.getChildren(categories[1]);
    const patternItem = tree.getTreeItem(pattern);
    assert.equal(patternItem.label, "Rewrite the training step");
    assert.equal(patternItem.contextValue, "finding");
    assert.equal((patternItem.iconPath as vscode.ThemeIcon).id, "warning");
  });

  it("applies a filter and says so in the summary", () => {
    const tree = new ScanTreeProvider();
    tree.setReport(report, root);
    tree.setFilter({ severities: ["warning"] });
    assert.equal(tree.summary(), "1 findings in 1 files (filtered)");
    const [folder] = tree.getChildren();
    assert.equal(tree.getTreeItem(folder).label, "net (1)");
    tree.setFilter({});
    assert.equal(tree.summary(), "2 findings in 1 files");
  });
});

describe("category labels", () => {
  it("are the server's report words, in VS Code's display language", async () => {
    const { categoryLabel } = await import("../src/labels");
    assert.equal(categoryLabel("missing", "en"), "Missing");
    assert.equal(categoryLabel("missing", "zh-cn"), "缺失");
    assert.equal(categoryLabel("no_such_category", "en"), "no_such_category");
  });
});
