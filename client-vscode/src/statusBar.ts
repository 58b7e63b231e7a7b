// Status-bar item: the active file's msmigrate findings, or the progress of a running scan.

import * as vscode from "vscode";

export const DIAGNOSTIC_SOURCE = "msmigrate";

export interface Counts {
  error: number;
  warning: number;
  information: number;
  hint: number;
}

/** Counts the diagnostics our server published (by `source`), per severity. */
export function countFindings(diagnostics: readonly vscode.Diagnostic[]): Counts {
  const counts: Counts = { error: 0, warning: 0, information: 0, hint: 0 };
  for (const d of diagnostics) {
    if (!d.source?.toLowerCase().startsWith(DIAGNOSTIC_SOURCE)) {
      continue;
    }
    switch (d.severity) {
      case vscode.DiagnosticSeverity.Error:
        counts.error += 1;
        break;
      case vscode.DiagnosticSeverity.Warning:
        counts.warning += 1;
        break;
      case vscode.DiagnosticSeverity.Information:
        counts.information += 1;
        break;
      default:
        counts.hint += 1;
    }
  }
  return counts;
}

export class FindingsStatus implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private progressText: string | undefined;

  constructor(focusCommand: string) {
    this.item = vscode.window.createStatusBarItem("msmigrate.status", vscode.StatusBarAlignment.Left, 50);
    this.item.name = vscode.l10n.t("MindSpore Migration");
    this.item.command = focusCommand;
    this.disposables.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh()),
      vscode.languages.onDidChangeDiagnostics(() => this.refresh()),
    );
    this.refresh();
  }

  /** Shows scan progress (`percent` 0–100 when known); `undefined` ends it. */
  setProgress(message: string | undefined, percent?: number): void {
    this.progressText =
      message === undefined ? undefined : percent === undefined ? message : `${message} ${Math.round(percent)}%`;
    this.refresh();
  }

  refresh(): void {
    if (this.progressText !== undefined) {
      this.item.text = `$(sync~spin) ${this.progressText}`;
      this.item.tooltip = this.progressText;
      this.item.show();
      return;
    }
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.languageId !== "python") {
      this.item.hide();
      return;
    }
    const c = countFindings(vscode.languages.getDiagnostics(editor.document.uri));
    const total = c.error + c.warning + c.information + c.hint;
    this.item.text = `$(arrow-swap) MS $(error) ${c.error} $(warning) ${c.warning} $(info) ${c.information + c.hint}`;
    this.item.tooltip = vscode.l10n.t(
      "MindSpore migration findings in this file: {0} ({1} errors, {2} warnings, {3} information, {4} hints)",
      total,
      c.error,
      c.warning,
      c.information,
      c.hint,
    );
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
    this.disposables.forEach((d) => d.dispose());
  }
}
