// Display names of report values: finding and mapping categories in the server's words (generated into
// protocol.ts, the same as in the server's reports), severities through vscode.l10n.

import * as vscode from "vscode";
import { FINDING_CATEGORY_LABELS, MAPPING_CATEGORY_LABELS } from "./protocol";

function inLanguage(label: { en: string; zh: string } | undefined, language: string): string | undefined {
  return label && (language.toLowerCase().startsWith("zh") ? label.zh : label.en);
}

/** A finding category (model/finding.py `FindingCategory`) in VS Code's display language. */
export function categoryLabel(category: string, language: string = vscode.env.language): string {
  return inLanguage(FINDING_CATEGORY_LABELS[category], language) ?? category;
}

export function severityLabel(severity: string): string {
  switch (severity) {
    case "error":
      return vscode.l10n.t("Error");
    case "warning":
      return vscode.l10n.t("Warning");
    case "information":
      return vscode.l10n.t("Information");
    case "hint":
      return vscode.l10n.t("Hint");
    default:
      return severity;
  }
}

/** Mapping-table categories (knowledge/model.py `MappingCategory`) in the server's words (generated into
 * protocol.ts), in VS Code's display language. */
export function mappingCategoryLabel(category: string, language: string = vscode.env.language): string {
  return inLanguage(MAPPING_CATEGORY_LABELS[category], language) ?? category;
}
