// Display names of report values, translated through vscode.l10n (l10n/bundle.l10n.zh-cn.json).

import * as vscode from "vscode";

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

/** Mapping-table categories (knowledge/model.py `MappingCategory`), as a lookup reports them. */
export function mappingCategoryLabel(category: string): string {
  switch (category) {
    case "consistent":
      return vscode.l10n.t("Consistent");
    case "param_names":
      return vscode.l10n.t("Parameter names differ");
    case "default_values":
      return vscode.l10n.t("Default values differ");
    case "data_types":
      return vscode.l10n.t("Parameter data types differ");
    case "param_count_order":
      return vscode.l10n.t("Number or order of parameters differs");
    case "no_verbose":
      return vscode.l10n.t("No verbose parameter in MindSpore");
    case "no_inplace":
      return vscode.l10n.t("No inplace parameter in MindSpore");
    case "other_difference":
      return vscode.l10n.t("Other differences");
    case "diff_page":
      return vscode.l10n.t("Differences described on a comparison page");
    case "unsupported":
      return vscode.l10n.t("Not supported by MindSpore");
    default:
      return category;
  }
}
