// Adapts the report tree (reportModel.ts) to a VS Code tree view.

import * as vscode from "vscode";
import { categoryLabel, severityLabel } from "./labels";
import { buildTree, ScanReportJson, totals, TreeFilter, TreeNode } from "./reportModel";

export const REVEAL_COMMAND = "msmigrate.revealFinding";

const SEVERITY_ICON: Record<string, string> = {
  error: "error",
  warning: "warning",
  information: "info",
  hint: "lightbulb",
};

export class ScanTreeProvider implements vscode.TreeDataProvider<TreeNode> {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private report: ScanReportJson | undefined;
  private root = "";
  private filter: TreeFilter = {};
  private nodes: TreeNode[] = [];

  get hasReport(): boolean {
    return this.report !== undefined;
  }

  get currentFilter(): TreeFilter {
    return this.filter;
  }

  get currentReport(): ScanReportJson | undefined {
    return this.report;
  }

  get currentRoot(): string {
    return this.root;
  }

  setReport(report: ScanReportJson | undefined, root: string): void {
    this.report = report;
    this.root = root;
    this.rebuild();
  }

  setFilter(filter: TreeFilter): void {
    this.filter = filter;
    this.rebuild();
  }

  /** Text for the view's message line: totals of the shown findings. */
  summary(): string | undefined {
    if (!this.report) {
      return undefined;
    }
    const t = totals(this.report, this.filter);
    const filtered = this.filter.categories?.length || this.filter.severities?.length;
    return filtered
      ? vscode.l10n.t("{0} findings in {1} files (filtered)", t.findings, t.files)
      : vscode.l10n.t("{0} findings in {1} files", t.findings, t.files);
  }

  private rebuild(): void {
    this.nodes = this.report ? buildTree(this.report, this.root, this.filter) : [];
    this.changed.fire(undefined);
  }

  getChildren(node?: TreeNode): TreeNode[] {
    if (!node) {
      return this.nodes;
    }
    return node.kind === "finding" ? [] : node.children;
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const collapsed = vscode.TreeItemCollapsibleState.Collapsed;
    const expanded = vscode.TreeItemCollapsibleState.Expanded;
    switch (node.kind) {
      case "folder": {
        const item = new vscode.TreeItem(`${node.name} (${node.count})`, expanded);
        item.resourceUri = vscode.Uri.file(node.fsPath);
        item.iconPath = vscode.ThemeIcon.Folder;
        item.contextValue = "folder";
        item.tooltip = node.fsPath;
        return item;
      }
      case "file": {
        const item = new vscode.TreeItem(`${node.name} (${node.count})`, collapsed);
        item.resourceUri = vscode.Uri.file(node.fsPath);
        item.iconPath = node.error ? new vscode.ThemeIcon("error") : vscode.ThemeIcon.File;
        item.description = node.error ?? undefined;
        item.tooltip = node.error ? `${node.reportPath}\n${node.error}` : node.reportPath;
        item.contextValue = "file";
        item.command = { command: "vscode.open", title: "", arguments: [vscode.Uri.file(node.fsPath)] };
        return item;
      }
      case "category": {
        const item = new vscode.TreeItem(`${categoryLabel(node.category)} (${node.count})`, collapsed);
        item.contextValue = "category";
        item.iconPath = new vscode.ThemeIcon("tag");
        return item;
      }
      case "finding": {
        const f = node.finding;
        const label = f.torch_api
          ? f.mindspore_api
            ? `${f.torch_api} → ${f.mindspore_api}`
            : f.torch_api
          : f.message;
        const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
        item.description = vscode.l10n.t("Ln {0}, Col {1} · {2}", f.line, f.column, f.rule);
        item.tooltip = new vscode.MarkdownString().appendText(
          `${f.message}\n\n${f.rule} · ${severityLabel(f.severity)} · ${categoryLabel(f.category)}`,
        );
        item.iconPath = new vscode.ThemeIcon(SEVERITY_ICON[f.severity] ?? "circle-outline");
        item.contextValue = f.fixable ? "finding.fixable" : "finding";
        item.command = {
          command: REVEAL_COMMAND,
          title: vscode.l10n.t("Go to finding"),
          arguments: [node.fsPath, f.line, f.column, f.end_line, f.end_column],
        };
        return item;
      }
    }
  }
}
