// The language server's commands (ids and types generated into protocol.ts) and what the client makes of
// their replies.

import * as path from "path";
import { ReportFile, resolveReportPath, ScanReportJson } from "./reportModel";

export { EXPORT_FORMATS, SERVER_COMMANDS } from "./protocol";

/** Something that runs a server command (ServerManager.execute, or a fake in tests). */
export type Execute = <T>(command: string, args: unknown[]) => Promise<T>;

export interface LookupSuggestion {
  torch_api: string;
  mindspore_api?: string | null;
  category?: string | null;
}

export interface LookupJson {
  status: string;
  torch_api: string;
  mindspore_api?: string | null;
  category?: string | null;
  suggestions?: (string | LookupSuggestion)[];
  markdown?: string;
  [key: string]: unknown;
}

/** Normalises a lookup's suggestions (names or objects) to objects. */
export function suggestions(result: LookupJson): LookupSuggestion[] {
  return (result.suggestions ?? []).map((s) => (typeof s === "string" ? { torch_api: s } : s));
}

/** A report is one with a `files` list; anything else (an error object, null) is not. */
export function isReport(value: unknown): value is ScanReportJson {
  return typeof value === "object" && value !== null && Array.isArray((value as ScanReportJson).files);
}

/** The `{"error": "..."}` a command returns for bad input (already in the user's language). */
export function resultError(result: unknown): string | undefined {
  if (typeof result === "object" && result !== null && "error" in result) {
    const error = (result as { error: unknown }).error;
    return typeof error === "string" && error ? error : undefined;
  }
  return undefined;
}

/** The report inside a `msmigrate.scanProject` result (`{"report": {...}, "htmlReport": ...}`). */
export function scanProjectReport(result: unknown): ScanReportJson | undefined {
  if (isReport(result)) {
    return result;
  }
  if (typeof result === "object" && result !== null && "report" in result) {
    const report = (result as { report: unknown }).report;
    return isReport(report) ? report : undefined;
  }
  return undefined;
}

/** `msmigrate.scanFile` answers one file (`{"path", "findings", "error"}`); as a one-file report. */
export function scanFileReport(result: unknown): ScanReportJson | undefined {
  if (isReport(result)) {
    return result;
  }
  if (typeof result === "object" && result !== null && Array.isArray((result as ReportFile).findings)) {
    const file = result as ReportFile;
    if (typeof file.path === "string") {
      return { files: [{ path: file.path, error: file.error ?? null, findings: file.findings }] };
    }
  }
  return undefined;
}

/**
 * Replaces (or adds) the files of `update` in `report`: "Scan Current File" refreshes one file's entry.
 * Paths are compared as absolute paths; the merged report keeps `report`'s root.
 */
export function mergeReports(
  report: ScanReportJson | undefined,
  update: ScanReportJson,
  root: string,
  updateRoot: string,
): ScanReportJson {
  const rebased = update.files.map((f) => {
    const abs = resolveReportPath(f.path, updateRoot);
    const rel = path.relative(root, abs);
    const inside = rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
    return { ...f, path: inside ? rel.split(path.sep).join("/") : abs };
  });
  if (!report) {
    return { ...update, root, files: rebased };
  }
  const key = (p: string): string => resolveReportPath(p, root);
  const updated = new Map(rebased.map((f) => [key(f.path), f]));
  const files = report.files.map((f) => updated.get(key(f.path)) ?? f);
  const known = new Set(report.files.map((f) => key(f.path)));
  files.push(...rebased.filter((f) => !known.has(key(f.path))));
  return { ...report, files };
}
