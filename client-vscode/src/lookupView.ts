// Renders a `msmigrate.lookup` answer (knowledge/lookup.py `to_json`) as a Markdown page.

import * as vscode from "vscode";
import { mappingCategoryLabel } from "./labels";
import type { LookupJson } from "./serverApi";

type Dict = Record<string, string>;

function code(name: unknown): string {
  const text = String(name ?? "").replace(/`/g, "'");
  return `\`${text}\``;
}

function table(header: [string, string, string?], rows: string[][]): string[] {
  const cols = header.filter((h) => h !== undefined) as string[];
  return [
    `| ${cols.join(" | ")} |`,
    `|${cols.map(() => " --- ").join("|")}|`,
    ...rows.map((r) => `| ${r.map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`),
    "",
  ];
}

function linkLabel(key: string): string {
  switch (key) {
    case "torch":
      return vscode.l10n.t("PyTorch documentation");
    case "mindspore":
      return vscode.l10n.t("MindSpore documentation");
    case "mindspore_en":
      return vscode.l10n.t("MindSpore documentation (English)");
    case "mindspore_zh":
      return vscode.l10n.t("MindSpore documentation (Chinese)");
    case "diff":
    case "diff_en":
    case "diff_zh":
      return vscode.l10n.t("Differences between the two APIs");
    default:
      return key;
  }
}

export function lookupMarkdown(r: LookupJson): string {
  const out: string[] = [`# ${code(r.torch_api ?? r.query)}`, ""];
  if (r.mindspore_api) {
    out.push(`**${vscode.l10n.t("MindSpore API")}:** ${code(r.mindspore_api)}`, "");
  } else {
    out.push(`**${vscode.l10n.t("MindSpore API")}:** ${vscode.l10n.t("none")}`, "");
  }
  if (r.category) {
    out.push(`**${vscode.l10n.t("Category")}:** ${mappingCategoryLabel(String(r.category))}`, "");
  }
  if (r.mindspore_version) {
    out.push(`**${vscode.l10n.t("Mapping table")}:** MindSpore ${String(r.mindspore_version)}`, "");
  }
  const renames = { ...((r.param_renames as Dict) ?? {}), ...((r.input_renames as Dict) ?? {}) };
  if (Object.keys(renames).length) {
    out.push(`## ${vscode.l10n.t("Renamed parameters")}`, "");
    out.push(...table(["PyTorch", "MindSpore"], Object.entries(renames).map(([a, b]) => [code(a), code(b)])));
  }
  const defaults = (r.default_differences as { param: string; torch_default: unknown; mindspore_default: unknown }[]) ?? [];
  if (defaults.length) {
    out.push(`## ${vscode.l10n.t("Different defaults")}`, "");
    out.push(
      ...table(
        [vscode.l10n.t("Parameter"), "PyTorch", "MindSpore"],
        defaults.map((d) => [code(d.param), code(d.torch_default), code(d.mindspore_default)]),
      ),
    );
  }
  const lists: [string, unknown][] = [
    [vscode.l10n.t("Not supported by MindSpore"), r.unsupported_params],
    [vscode.l10n.t("Only in MindSpore"), r.mindspore_only_params],
    [vscode.l10n.t("Alternatives"), r.alternatives],
  ];
  for (const [title, values] of lists) {
    if (Array.isArray(values) && values.length) {
      out.push(`## ${title}`, "", values.map(code).join(", "), "");
    }
  }
  const versions = (r.other_versions as Dict) ?? {};
  if (Object.keys(versions).length) {
    out.push(`## ${vscode.l10n.t("Other MindSpore versions")}`, "");
    out.push(...Object.entries(versions).map(([v, api]) => `- MindSpore ${v}: ${code(api)}`), "");
  }
  const notes = Array.isArray(r.notes) ? (r.notes as string[]) : [];
  if (notes.length) {
    out.push(`## ${vscode.l10n.t("Notes")}`, "", ...notes.map((n) => `- ${n}`), "");
  }
  if (typeof r.advice === "string" && r.advice) {
    out.push(r.advice, "");
  }
  const urls = Object.entries((r.urls as Dict) ?? {}).filter(([, u]) => /^https?:\/\//.test(u));
  if (urls.length) {
    out.push(`## ${vscode.l10n.t("Links")}`, "", ...urls.map(([k, u]) => `- [${linkLabel(k)}](${u})`), "");
  }
  return out.join("\n");
}
