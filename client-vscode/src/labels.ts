// Display names of report values: findings' through vscode.l10n (l10n/bundle.l10n.zh-cn.json), mapping
// categories' from the server's messages (protocol.ts).

import * as vscode from "vscode";
import { MAPPING_CATEGORY_LABELS } from "./protocol";

export function categoryLabel(category: string): string {
  switch (category) {
    case "consistent":
      return vscode.l10n.t("Consistent");
    case "differences":
      return vscode.l10n.t("Differences");
    case "missing":
      return vscode.l10n.t("Missing in MindSpore");
    case "possible_tensor_api":
      return vscode.l10n.t("Possible Tensor API");
    case "data_processing":
      return vscode.l10n.t("Data processing");
    case "unknown_torch_name":
      return vscode.l10n.t("Unknown torch name");
    case "dynamic_shape":
      return vscode.l10n.t("Dynamic shape");
    case "sparse":
      return vscode.l10n.t("Sparse");
    case "framework_pattern":
      return vscode.l10n.t("Framework pattern");
    default:
      return category;
  }
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
  const label = MAPPING_CATEGORY_LABELS[category];
  if (!label) {
    return category;
  }
  return language.toLowerCase().startsWith("zh") ? label.zh : label.en;
}
