// Entry point: wires the server, the scan-results view, the report webview, the status bar and the commands.

import * as vscode from "vscode";
import { codePointColumnToUtf16, ScanReportJson } from "./reportModel";
import { ReportPanel } from "./reportWebview";
import { ServerManager } from "./server";
import { scanProjectReport, SERVER_COMMANDS } from "./serverApi";
import { FindingsStatus } from "./statusBar";
import { ScanTreeProvider, REVEAL_COMMAND } from "./treeView";
import { COMMANDS, registerCommands, reportRoot } from "./commands";

export const VIEW_ID = "msmigrate.results";

let manager: ServerManager | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel(vscode.l10n.t("MindSpore Migration"), { log: true });
  const tree = new ScanTreeProvider();
  const view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  const panel = new ReportPanel();
  const status = new FindingsStatus(`${VIEW_ID}.focus`);

  const showReport = (report: ScanReportJson, fallbackRoot: string): void => {
    tree.setReport(report, reportRoot(report, fallbackRoot));
    view.message = tree.summary();
    void vscode.commands.executeCommand("setContext", "msmigrate.hasReport", true);
  };

  manager = new ServerManager(context, output, {
    onCommandResult(command, args, result) {
      // Results of scans started anywhere (palette, code lens, tree refresh) land in the tree.
      const report = command === SERVER_COMMANDS.scanProject ? scanProjectReport(result) : undefined;
      if (report) {
        const target = args[0] as { path?: string } | undefined;
        const folder = target?.path
          ? vscode.Uri.parse(target.path).fsPath
          : (vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? "");
        showReport(report, folder);
      }
    },
    takeOver(command, args) {
      // the lens "Compare with the PyTorch original" runs as the palette command does
      return command === SERVER_COMMANDS.compareModels
        ? vscode.commands.executeCommand(COMMANDS.compare, args[0])
        : undefined;
    },
    async showReport(uri, takeFocus) {
      try {
        await panel.show(uri, !takeFocus);
        return true;
      } catch (err) {
        output.error(`could not show ${uri.toString()}: ${String(err)}`);
        return false;
      }
    },
  });

  context.subscriptions.push(
    output,
    view,
    status,
    manager,
    { dispose: () => panel.dispose() },
    vscode.commands.registerCommand(REVEAL_COMMAND, revealFinding),
    ...registerCommands({ manager, tree, view, panel, status, output, showReport }),
  );
  void vscode.commands.executeCommand("setContext", "msmigrate.hasReport", false);

  await manager.start();
  void manager.watchPythonExtension();
}

/** Opens a file at a finding (1-based lines, 1-based code-point columns) and selects it. */
async function revealFinding(
  fsPath: string,
  line: number,
  column: number,
  endLine: number,
  endColumn: number,
): Promise<void> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(fsPath));
  const lastLine = Math.max(0, document.lineCount - 1);
  const startLine = Math.min(Math.max(0, line - 1), lastLine);
  const stopLine = Math.min(Math.max(startLine, endLine - 1), lastLine);
  const start = new vscode.Position(startLine, codePointColumnToUtf16(document.lineAt(startLine).text, column));
  const end = new vscode.Position(stopLine, codePointColumnToUtf16(document.lineAt(stopLine).text, endColumn));
  const editor = await vscode.window.showTextDocument(document, { preview: true });
  editor.selection = new vscode.Selection(start, end);
  editor.revealRange(new vscode.Range(start, end), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

export async function deactivate(): Promise<void> {
  await manager?.stop();
  manager = undefined;
}
