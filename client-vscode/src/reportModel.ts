// The scan-results tree, built from the server's JSON report (docs/report-schema.md):
// folders → files → categories → findings, with counts. No VS Code types here: the tree view adapts it.

import * as path from "path";
import { FindingCategory, SEVERITIES } from "./protocol";

export interface ReportFinding {
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  torch_api: string | null;
  mindspore_api: string | null;
  category: string;
  rule: string;
  severity: string;
  message: string;
  fixable: boolean;
  usage?: string;
}

export interface ReportFile {
  path: string;
  error?: string | null;
  findings: ReportFinding[];
}

export interface ScanReportJson {
  root?: string;
  files: ReportFile[];
  summary?: Record<string, unknown>;
  [key: string]: unknown;
}

/** Most actionable first. Categories the client does not know yet follow in alphabetical order. */
export const CATEGORY_ORDER: readonly FindingCategory[] = [
  "missing",
  "unknown_torch_name",
  "differences",
  "dynamic_shape",
  "sparse",
  "framework_pattern",
  "possible_tensor_api",
  "data_processing",
  "consistent",
];

export const SEVERITY_ORDER: readonly string[] = SEVERITIES;

export interface TreeFilter {
  /** Keep only these categories (empty or absent: all). */
  categories?: string[];
  /** Keep only these severities (empty or absent: all). */
  severities?: string[];
}

export interface FolderNode {
  kind: "folder";
  /** Shown name: one folder, or a chain of single-child folders joined with `/`. */
  name: string;
  fsPath: string;
  count: number;
  children: TreeNode[];
}

export interface FileNode {
  kind: "file";
  name: string;
  /** Path as the report writes it (relative to the report root, POSIX). */
  reportPath: string;
  fsPath: string;
  count: number;
  error?: string;
  children: CategoryNode[];
}

export interface CategoryNode {
  kind: "category";
  category: string;
  fsPath: string;
  count: number;
  children: FindingNode[];
}

export interface FindingNode {
  kind: "finding";
  fsPath: string;
  finding: ReportFinding;
}

export type TreeNode = FolderNode | FileNode | CategoryNode | FindingNode;

function rank(order: readonly string[], value: string): number {
  const i = order.indexOf(value);
  return i < 0 ? order.length : i;
}

function keep(f: ReportFinding, filter: TreeFilter | undefined): boolean {
  if (filter?.categories?.length && !filter.categories.includes(f.category)) {
    return false;
  }
  if (filter?.severities?.length && !filter.severities.includes(f.severity)) {
    return false;
  }
  return true;
}

/** Absolute file-system path of a report path (absolute, or relative to the report root). */
export function resolveReportPath(reportPath: string, root: string): string {
  if (path.isAbsolute(reportPath) || path.win32.isAbsolute(reportPath)) {
    return path.normalize(reportPath);
  }
  return path.join(root, ...reportPath.split("/"));
}

function fileNode(file: ReportFile, root: string, filter: TreeFilter | undefined): FileNode | undefined {
  const findings = file.findings.filter((f) => keep(f, filter));
  if (findings.length === 0 && !file.error) {
    return undefined;
  }
  const fsPath = resolveReportPath(file.path, root);
  const byCategory = new Map<string, ReportFinding[]>();
  for (const f of findings) {
    const list = byCategory.get(f.category) ?? [];
    list.push(f);
    byCategory.set(f.category, list);
  }
  const children: CategoryNode[] = [...byCategory.entries()]
    .sort(([a], [b]) => rank(CATEGORY_ORDER, a) - rank(CATEGORY_ORDER, b) || a.localeCompare(b))
    .map(([category, list]) => ({
      kind: "category",
      category,
      fsPath,
      count: list.length,
      children: [...list]
        .sort((a, b) => a.line - b.line || a.column - b.column || a.rule.localeCompare(b.rule))
        .map((finding) => ({ kind: "finding", fsPath, finding })),
    }));
  const parts = file.path.split(/[\\/]/);
  return {
    kind: "file",
    name: parts[parts.length - 1],
    reportPath: file.path,
    fsPath,
    count: findings.length,
    error: file.error ?? undefined,
    children,
  };
}

interface DirBuild {
  dirs: Map<string, DirBuild>;
  files: FileNode[];
}

function toNodes(dir: DirBuild, fsDir: string): TreeNode[] {
  const folders: FolderNode[] = [...dir.dirs.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, sub]) => {
      let shown = name;
      let fsPath = path.join(fsDir, name);
      let current = sub;
      // Compact chains of folders that hold only one folder ("src/models").
      while (current.files.length === 0 && current.dirs.size === 1) {
        const [[childName, child]] = [...current.dirs.entries()];
        shown = `${shown}/${childName}`;
        fsPath = path.join(fsPath, childName);
        current = child;
      }
      const children = toNodes(current, fsPath);
      const count = children.reduce((n, c) => n + (c.kind === "folder" || c.kind === "file" ? c.count : 0), 0);
      return { kind: "folder", name: shown, fsPath, count, children };
    });
  const files = [...dir.files].sort((a, b) => a.name.localeCompare(b.name));
  return [...folders, ...files];
}

/** Builds the tree for a report whose relative paths start at `root`. */
export function buildTree(report: ScanReportJson, root: string, filter?: TreeFilter): TreeNode[] {
  const top: DirBuild = { dirs: new Map(), files: [] };
  for (const file of report.files ?? []) {
    const node = fileNode(file, root, filter);
    if (!node) {
      continue;
    }
    const rel = path.relative(root, node.fsPath);
    const outside = rel.startsWith("..") || path.isAbsolute(rel);
    const folders = outside ? [path.dirname(node.fsPath)] : rel.split(path.sep).slice(0, -1);
    let dir = top;
    for (const name of folders) {
      let next = dir.dirs.get(name);
      if (!next) {
        next = { dirs: new Map(), files: [] };
        dir.dirs.set(name, next);
      }
      dir = next;
    }
    dir.files.push(node);
  }
  return toNodes(top, root);
}

export interface Totals {
  files: number;
  findings: number;
  bySeverity: Record<string, number>;
  byCategory: Record<string, number>;
}

/** Counts over the whole report (filter applied), for the view's title and message. */
export function totals(report: ScanReportJson, filter?: TreeFilter): Totals {
  const out: Totals = { files: 0, findings: 0, bySeverity: {}, byCategory: {} };
  for (const file of report.files ?? []) {
    const findings = file.findings.filter((f) => keep(f, filter));
    if (findings.length > 0) {
      out.files += 1;
    }
    for (const f of findings) {
      out.findings += 1;
      out.bySeverity[f.severity] = (out.bySeverity[f.severity] ?? 0) + 1;
      out.byCategory[f.category] = (out.byCategory[f.category] ?? 0) + 1;
    }
  }
  return out;
}

/** LSP/VS Code character offset (UTF-16 units, 0-based) of a 1-based code-point column on `lineText`. */
export function codePointColumnToUtf16(lineText: string, column: number): number {
  let units = 0;
  let points = 0;
  for (const ch of lineText) {
    if (points >= column - 1) {
      break;
    }
    units += ch.length;
    points += 1;
  }
  return units + Math.max(0, column - 1 - points);
}
