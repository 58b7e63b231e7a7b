// The commands of the palette, the editor context menu and the scan-results view.

import * as path from "path";
import * as vscode from "vscode";
import { compareArguments, compareHtml, compareOutcome, OPEN_SOURCE_COMMAND } from "./compareView";
import { categoryLabel, mappingCategoryLabel, severityLabel } from "./labels";
import { lookupMarkdown } from "./lookupView";
import { CATEGORY_ORDER, resolveReportPath, ScanReportJson, SEVERITY_ORDER, TreeFilter, TreeNode } from "./reportModel";
import { ReportPanel } from "./reportWebview";
import { ProgressReport, ServerManager, settingsFor } from "./server";
import {
  EXPORT_FORMATS,
  LookupJson,
  mergeReports,
  resultError,
  scanFileReport,
  scanProjectReport,
  SERVER_COMMANDS,
  suggestions,
} from "./serverApi";
import { FindingsStatus } from "./statusBar";
import { ScanTreeProvider } from "./treeView";

export const COMMANDS = {
  scanProject: "msmigrate.scanWorkspace",
  scanFile: "msmigrate.scanCurrentFile",
  fixAll: "msmigrate.fixAllInFile",
  checkEquivalence: "msmigrate.checkOperatorEquivalence",
  exportReport: "msmigrate.exportScanReport",
  lookup: "msmigrate.lookUpApi",
  restart: "msmigrate.restartServer",
  showOutput: "msmigrate.showOutput",
  refresh: "msmigrate.results.refresh",
  filter: "msmigrate.results.filter",
  clearFilter: "msmigrate.results.clearFilter",
  openReport: "msmigrate.openHtmlReport",
  compare: "msmigrate.compareWithPyTorch",
} as const;

export interface CommandDeps {
  manager: ServerManager;
  tree: ScanTreeProvider;
  view: vscode.TreeView<TreeNode>;
  panel: ReportPanel;
  status: FindingsStatus;
  output: vscode.LogOutputChannel;
  showReport(report: ScanReportJson, fallbackRoot: string): void;
}

/** The folder a report's relative paths start from: its `root` field, else the scanned folder. */
export function reportRoot(report: ScanReportJson, fallback: string): string {
  return typeof report.root === "string" && report.root ? report.root : fallback;
}

async function pickFolder(): Promise<vscode.WorkspaceFolder | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length <= 1) {
    return folders[0];
  }
  return vscode.window.showWorkspaceFolderPick({ placeHolder: vscode.l10n.t("Folder to scan") });
}

function pythonEditorUri(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) {
    return arg;
  }
  if (arg && typeof arg === "object" && "fsPath" in arg && typeof (arg as { fsPath: unknown }).fsPath === "string") {
    return vscode.Uri.file((arg as { fsPath: string }).fsPath); // a tree node
  }
  const editor = vscode.window.activeTextEditor;
  return editor && editor.document.languageId === "python" ? editor.document.uri : undefined;
}

export const LOOKUP_SCHEME = "msmigrate-lookup";

export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const { manager, tree, view, panel, status, output } = deps;
  let lastFolder: vscode.WorkspaceFolder | undefined;
  const lookupPages = new Map<string, string>();
  const lookupChanged = new vscode.EventEmitter<vscode.Uri>();

  /** Runs a server command with a cancellable notification and the status-bar progress. */
  async function withProgress<T>(title: string, command: string, args: unknown[]): Promise<T | undefined> {
    try {
      return await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title, cancellable: true },
        async (progress, token) => {
          let shown = 0;
          status.setProgress(title);
          const onProgress = (report: ProgressReport): void => {
            const pct = report.percentage;
            const increment = pct !== undefined && pct > shown ? pct - shown : undefined;
            if (pct !== undefined) {
              shown = Math.max(shown, pct);
            }
            progress.report({ message: report.message, increment });
            status.setProgress(title, pct);
          };
          return await manager.execute<T>(command, args, onProgress, token);
        },
      ).then((result) => {
        const error = resultError(result);
        if (error) {
          void vscode.window.showErrorMessage(error);
          return undefined;
        }
        return result;
      });
    } catch (err) {
      if (!(err instanceof vscode.CancellationError) && !/cancel/i.test(String(err))) {
        output.error(`${command}: ${String(err)}`);
        void vscode.window.showErrorMessage(vscode.l10n.t("{0} failed: {1}", title, errorText(err)));
      }
      return undefined;
    } finally {
      status.setProgress(undefined);
    }
  }

  async function scanProject(folder?: vscode.WorkspaceFolder): Promise<void> {
    const target = folder ?? (await pickFolder());
    if (!target) {
      void vscode.window.showWarningMessage(vscode.l10n.t("Open a folder to scan it."));
      return;
    }
    lastFolder = target;
    const result = await withProgress<unknown>(
      vscode.l10n.t("Scanning {0} for PyTorch APIs", target.name),
      SERVER_COMMANDS.scanProject,
      [{ path: target.uri.toString() }],
    );
    const report = scanProjectReport(result);
    if (report) {
      deps.showReport(report, target.uri.fsPath);
      await vscode.commands.executeCommand("msmigrate.results.focus");
    }
  }

  async function scanFile(arg?: unknown): Promise<void> {
    const uri = pythonEditorUri(arg);
    if (!uri) {
      void vscode.window.showWarningMessage(vscode.l10n.t("Open a Python file to scan it."));
      return;
    }
    const result = await withProgress<unknown>(
      vscode.l10n.t("Scanning {0}", path.basename(uri.fsPath)),
      SERVER_COMMANDS.scanFile,
      [{ uri: uri.toString() }],
    );
    const single = scanFileReport(result);
    if (single) {
      const current = tree.currentReport;
      const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath ?? path.dirname(uri.fsPath);
      const root = current ? tree.currentRoot : folder;
      deps.showReport(mergeReports(current, single, root, path.dirname(uri.fsPath)), root);
    }
  }

  async function fixAll(arg?: unknown): Promise<void> {
    const uri = pythonEditorUri(arg);
    if (!uri) {
      void vscode.window.showWarningMessage(vscode.l10n.t("Open a Python file to fix it."));
      return;
    }
    await vscode.window.showTextDocument(uri, { preview: false }); // the server fixes open documents
    const result = await withProgress<unknown>(vscode.l10n.t("Applying all MindSpore fixes"), SERVER_COMMANDS.fixAll, [
      { uri: uri.toString() },
    ]);
    if (result && typeof result === "object" && "applied" in result) {
      const applied = (result as { applied: unknown }).applied;
      const n = Array.isArray(applied) ? applied.length : Number(applied) || 0;
      void vscode.window.showInformationMessage(vscode.l10n.t("Applied {0} fixes.", n));
    }
  }

  async function checkEquivalence(arg?: unknown): Promise<void> {
    // Where the call is (1-based line, code-point column), so the server can reuse its literal arguments.
    let site: { uri: string; line: number; column: number } | undefined;
    let suggestion: string | undefined;
    if (arg && typeof arg === "object" && (arg as TreeNode).kind === "finding") {
      const node = arg as Extract<TreeNode, { kind: "finding" }>;
      suggestion = node.finding.torch_api ?? undefined;
      site = { uri: vscode.Uri.file(node.fsPath).toString(), line: node.finding.line, column: node.finding.column };
    } else {
      const editor = vscode.window.activeTextEditor;
      if (editor && editor.document.languageId === "python") {
        const pos = editor.selection.active;
        const prefix = editor.document.lineAt(pos.line).text.slice(0, pos.character);
        site = { uri: editor.document.uri.toString(), line: pos.line + 1, column: [...prefix].length + 1 };
      }
      suggestion = apiAtCursor(tree.currentReport);
    }
    const torchApi = await vscode.window.showInputBox({
      title: vscode.l10n.t("Check Operator Equivalence"),
      prompt: vscode.l10n.t("PyTorch API to run against its MindSpore counterpart (for example torch.nn.functional.relu)"),
      value: suggestion ?? "",
      validateInput: (v) => (/^torch(\.\w+)+$/.test(v.trim()) ? undefined : vscode.l10n.t("Enter a torch API name.")),
    });
    if (!torchApi) {
      return;
    }
    const device = settingsFor(vscode.window.activeTextEditor?.document.uri).device;
    const api = torchApi.trim();
    const result = await withProgress<unknown>(
      vscode.l10n.t("Checking {0} on {1}", api, device),
      SERVER_COMMANDS.checkEquivalence,
      [{ api, ...(api === suggestion ? site : {}) }],
    );
    if (result !== undefined) {
      await showJsonResult(result, vscode.l10n.t("Equivalence check of {0}", api));
    }
  }

  /** Where the server looks for `[[tool.msmigrate.compare]]`: the active file's folder up, else a folder. */
  async function compareLocation(): Promise<string | undefined> {
    const editor = vscode.window.activeTextEditor;
    if (editor && editor.document.uri.scheme === "file" && vscode.workspace.getWorkspaceFolder(editor.document.uri)) {
      return editor.document.uri.toString();
    }
    return (await pickFolder())?.uri.toString();
  }

  async function compareModels(arg?: unknown): Promise<void> {
    const given = compareArguments(arg);
    let config = given.config ?? (await compareLocation());
    if (!config) {
      void vscode.window.showWarningMessage(vscode.l10n.t("Open a folder to compare its models."));
      return;
    }
    let name = given.name;
    for (;;) {
      const title = name
        ? vscode.l10n.t("Comparing {0} with its PyTorch original", name)
        : vscode.l10n.t("Comparing the model with its PyTorch original");
      const reply = await withProgress<unknown>(title, SERVER_COMMANDS.compareModels, [{ name, config, open: "none" }]);
      if (reply === undefined) {
        return; // an error already shown, or cancelled
      }
      const outcome = compareOutcome(reply);
      if (outcome.kind === "error") {
        void vscode.window.showErrorMessage(outcome.message);
        return;
      }
      if (outcome.kind === "cancelled") {
        void vscode.window.showInformationMessage(vscode.l10n.t("Comparison cancelled."));
        return;
      }
      if (outcome.kind === "choose") {
        const pick = await vscode.window.showQuickPick(
          outcome.choices.map((c) => ({ label: c.name, description: c.mindspore, detail: c.torch, name: c.name })),
          {
            title: vscode.l10n.t("Compare Model with Its PyTorch Original"),
            placeHolder: vscode.l10n.t("Comparison of [[tool.msmigrate.compare]] to run"),
          },
        );
        if (!pick) {
          return;
        }
        name = pick.name;
        config = outcome.config;
        continue;
      }
      panel.showHtml(compareHtml(outcome.report, vscode.l10n), false, [OPEN_SOURCE_COMMAND]);
      const show =
        outcome.report.status === "match"
          ? vscode.window.showInformationMessage
          : outcome.report.status === "diverge"
            ? vscode.window.showWarningMessage
            : vscode.window.showErrorMessage;
      const openMarkdown = vscode.l10n.t("Open Markdown Report");
      const markdown = outcome.markdown;
      void show(outcome.summary, ...(markdown ? [openMarkdown] : [])).then((choice) => {
        if (choice === openMarkdown && markdown) {
          void vscode.commands.executeCommand("markdown.showPreview", vscode.Uri.file(markdown));
        }
      });
      return;
    }
  }

  /** A link of the compare page: the file at a 1-based line. */
  async function openSourceLine(file: unknown, line: unknown): Promise<void> {
    if (typeof file !== "string" || !file) {
      return;
    }
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const target = Math.min(Math.max(0, (Number(line) || 1) - 1), Math.max(0, document.lineCount - 1));
    const position = new vscode.Position(target, document.lineAt(target).firstNonWhitespaceCharacterIndex);
    const editor = await vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.One });
    editor.selection = new vscode.Selection(position, position);
    editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  async function exportReport(): Promise<void> {
    const format = await vscode.window.showQuickPick(
      EXPORT_FORMATS.map((f) => ({ label: f.label, description: `.${f.extension}`, format: f })),
      { title: vscode.l10n.t("Export Scan Report"), placeHolder: vscode.l10n.t("Report format") },
    );
    if (!format) {
      return;
    }
    const folder = lastFolder ?? (await pickFolder());
    if (!folder) {
      void vscode.window.showWarningMessage(vscode.l10n.t("Open a folder to scan it."));
      return;
    }
    const target = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.joinPath(folder.uri, `msmigrate-report.${format.format.extension}`),
      filters: { [format.label]: [format.format.extension] },
      title: vscode.l10n.t("Export Scan Report"),
    });
    if (!target) {
      return;
    }
    const result = await withProgress<{ path?: string }>(
      vscode.l10n.t("Exporting the {0} report", format.label),
      SERVER_COMMANDS.exportReport,
      [{ format: format.format.id, path: folder.uri.toString() }],
    );
    if (!result?.path) {
      return;
    }
    // The server writes <folder>/.msmigrate/report.<ext>; the user chose where it goes.
    const written = vscode.Uri.file(result.path);
    if (written.fsPath !== target.fsPath) {
      await vscode.workspace.fs.copy(written, target, { overwrite: true });
    }
    const open = vscode.l10n.t("Open");
    const pick = await vscode.window.showInformationMessage(
      vscode.l10n.t("Report written to {0}", target.fsPath),
      open,
    );
    if (pick === open) {
      if (format.format.id === "html") {
        await panel.show(target);
      } else {
        await vscode.window.showTextDocument(target);
      }
    }
  }

  async function lookUp(): Promise<void> {
    type Item = vscode.QuickPickItem & { torchApi: string };
    const quickPick = vscode.window.createQuickPick<Item>();
    quickPick.title = vscode.l10n.t("Look Up PyTorch API");
    quickPick.placeholder = vscode.l10n.t("Type a PyTorch API name, e.g. torch.nn.Conv2d or F.relu");
    quickPick.matchOnDescription = true;
    let timer: NodeJS.Timeout | undefined;
    let generation = 0;
    const search = async (value: string): Promise<void> => {
      const mine = ++generation;
      if (!value.trim()) {
        quickPick.items = [];
        return;
      }
      quickPick.busy = true;
      try {
        const result = await manager.execute<LookupJson>(SERVER_COMMANDS.lookup, [{ name: value.trim() }]);
        if (mine !== generation || !result || resultError(result)) {
          return;
        }
        const items: Item[] = [];
        if (result.status !== "not_found" && result.torch_api) {
          items.push({
            label: result.torch_api,
            description: result.mindspore_api ?? vscode.l10n.t("no MindSpore counterpart"),
            detail: result.category ? mappingCategoryLabel(String(result.category)) : undefined,
            torchApi: result.torch_api,
            alwaysShow: true,
          });
        }
        for (const s of suggestions(result)) {
          if (s.torch_api !== result.torch_api) {
            items.push({
              label: s.torch_api,
              description: s.mindspore_api ?? undefined,
              detail: s.category ? mappingCategoryLabel(s.category) : undefined,
              torchApi: s.torch_api,
              alwaysShow: true,
            });
          }
        }
        quickPick.items = items;
      } catch (err) {
        output.error(`lookup: ${String(err)}`);
      } finally {
        if (mine === generation) {
          quickPick.busy = false;
        }
      }
    };
    quickPick.onDidChangeValue((value) => {
      if (timer) {
        clearTimeout(timer);
      }
      timer = setTimeout(() => void search(value), 150);
    });
    const chosen = await new Promise<string | undefined>((resolve) => {
      quickPick.onDidAccept(() => {
        resolve(quickPick.selectedItems[0]?.torchApi ?? (quickPick.value.trim() || undefined));
        quickPick.hide();
      });
      quickPick.onDidHide(() => resolve(undefined));
      quickPick.show();
    });
    quickPick.dispose();
    if (!chosen) {
      return;
    }
    const result = await manager.execute<LookupJson>(SERVER_COMMANDS.lookup, [{ name: chosen }]);
    const error = resultError(result);
    if (error || !result) {
      void vscode.window.showErrorMessage(error ?? chosen);
      return;
    }
    // A read-only virtual document (no "save changes?" prompt), shown as a Markdown preview.
    const uri = vscode.Uri.from({ scheme: LOOKUP_SCHEME, path: `/${chosen}.md` });
    lookupPages.set(uri.toString(), lookupMarkdown(result));
    lookupChanged.fire(uri);
    await vscode.commands.executeCommand("markdown.showPreview", uri);
  }

  async function showJsonResult(result: unknown, title: string): Promise<void> {
    const content = `// ${title}\n${JSON.stringify(result, null, 2)}\n`;
    const doc = await vscode.workspace.openTextDocument({ language: "jsonc", content });
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  async function chooseFilter(): Promise<void> {
    type Item = vscode.QuickPickItem & { kind2: "category" | "severity"; value: string };
    const current = tree.currentFilter;
    const items: Item[] = [
      ...CATEGORY_ORDER.map((c) => ({
        label: categoryLabel(c),
        description: vscode.l10n.t("category"),
        kind2: "category" as const,
        value: c,
        picked: current.categories?.includes(c) ?? false,
      })),
      ...SEVERITY_ORDER.map((s) => ({
        label: severityLabel(s),
        description: vscode.l10n.t("severity"),
        kind2: "severity" as const,
        value: s,
        picked: current.severities?.includes(s) ?? false,
      })),
    ];
    const picked = await vscode.window.showQuickPick(items, {
      canPickMany: true,
      title: vscode.l10n.t("Show only these categories and severities (none selected: show all)"),
    });
    if (!picked) {
      return;
    }
    const filter: TreeFilter = {
      categories: picked.filter((p) => p.kind2 === "category").map((p) => p.value),
      severities: picked.filter((p) => p.kind2 === "severity").map((p) => p.value),
    };
    tree.setFilter(filter);
    view.message = tree.summary();
    const active = (filter.categories?.length ?? 0) + (filter.severities?.length ?? 0) > 0;
    await vscode.commands.executeCommand("setContext", "msmigrate.filtered", active);
  }

  return [
    lookupChanged,
    vscode.workspace.registerTextDocumentContentProvider(LOOKUP_SCHEME, {
      onDidChange: lookupChanged.event,
      provideTextDocumentContent: (uri) => lookupPages.get(uri.toString()) ?? "",
    }),
    vscode.commands.registerCommand(COMMANDS.scanProject, () => scanProject()),
    vscode.commands.registerCommand(COMMANDS.scanFile, scanFile),
    vscode.commands.registerCommand(COMMANDS.fixAll, fixAll),
    vscode.commands.registerCommand(COMMANDS.checkEquivalence, checkEquivalence),
    vscode.commands.registerCommand(COMMANDS.exportReport, exportReport),
    vscode.commands.registerCommand(COMMANDS.lookup, lookUp),
    vscode.commands.registerCommand(COMMANDS.compare, compareModels),
    vscode.commands.registerCommand(OPEN_SOURCE_COMMAND, openSourceLine),
    vscode.commands.registerCommand(COMMANDS.restart, () => manager.restart()),
    vscode.commands.registerCommand(COMMANDS.showOutput, () => output.show()),
    vscode.commands.registerCommand(COMMANDS.refresh, () => scanProject(lastFolder)),
    vscode.commands.registerCommand(COMMANDS.filter, chooseFilter),
    vscode.commands.registerCommand(COMMANDS.clearFilter, async () => {
      tree.setFilter({});
      view.message = tree.summary();
      await vscode.commands.executeCommand("setContext", "msmigrate.filtered", false);
    }),
    vscode.commands.registerCommand(COMMANDS.openReport, async () => {
      if (panel.lastReport) {
        await panel.show(panel.lastReport);
      } else {
        void vscode.window.showInformationMessage(vscode.l10n.t("No HTML report yet: run MindSpore: Scan Project."));
      }
    }),
  ];
}

/** The torch API of the last report's finding under the cursor, if any. */
function apiAtCursor(report: ScanReportJson | undefined): string | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !report) {
    return undefined;
  }
  const line = editor.selection.active.line + 1;
  const folder = vscode.workspace.getWorkspaceFolder(editor.document.uri)?.uri.fsPath ?? "";
  const root = reportRoot(report, folder);
  const file = report.files.find((f) => resolveReportPath(f.path, root) === editor.document.uri.fsPath);
  return file?.findings.find((f) => f.line <= line && line <= f.end_line && f.torch_api)?.torch_api ?? undefined;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
