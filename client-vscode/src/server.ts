// Starts, restarts and talks to the language server (`python -m msmigrate serve` over stdio).

import * as os from "os";
import * as path from "path";
import { randomUUID } from "crypto";
import * as vscode from "vscode";
import {
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
  WorkDoneProgress,
  WorkDoneProgressCancelNotification,
} from "vscode-languageclient/node";
import { chooseInterpreter, InterpreterChoice, serverProcess } from "./interpreter";
import { CheckResult, checkPython } from "./pythonCheck";
import { activeEnvironmentCommand, onActiveEnvironmentChanged, pythonExtensionInstalled } from "./pythonExtension";
import {
  answerConfiguration,
  PathContext,
  RESTART_KEYS,
  SECTION,
  ServerSettings,
  toClientSettings,
  toServerSettings,
} from "./settings";

export interface ProgressReport {
  message?: string;
  percentage?: number;
}

export interface ServerHooks {
  /** Called with every `msmigrate.scanProject`/`scanFile` result, whoever triggered it (palette, code lens). */
  onCommandResult(command: string, args: unknown[], result: unknown): void;
  /** `window/showDocument` for an HTML report: shown in our webview instead of as text. */
  showReport(uri: vscode.Uri, takeFocus: boolean): Promise<boolean>;
  /**
   * A server command run from a code lens that the client runs its own way instead (the model comparison:
   * progress, a quick pick, the report webview); `undefined`: sent to the server as it is.
   */
  takeOver?(command: string, args: unknown[]): Thenable<unknown> | undefined;
}

function pathContext(folder: vscode.WorkspaceFolder | undefined): PathContext {
  return { workspaceFolder: folder?.uri.fsPath, userHome: os.homedir(), uiLanguage: vscode.env.language };
}

function firstFolder(): vscode.WorkspaceFolder | undefined {
  return vscode.workspace.workspaceFolders?.[0];
}

/** The mapped `msmigrate` settings of a folder (the server asks per scope URI). */
export function settingsFor(scope: vscode.Uri | undefined): ServerSettings {
  const folder = scope ? vscode.workspace.getWorkspaceFolder(scope) : firstFolder();
  return toServerSettings(vscode.workspace.getConfiguration(SECTION, scope ?? folder?.uri), pathContext(folder));
}

export class ServerManager implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private starting: Promise<void> | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private interpreter: InterpreterChoice | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly output: vscode.LogOutputChannel,
    private readonly hooks: ServerHooks,
  ) {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (RESTART_KEYS.some((key) => e.affectsConfiguration(key))) {
          void this.restart();
        } else if (e.affectsConfiguration(SECTION)) {
          void this.client?.sendNotification(DidChangeConfigurationNotification.type, {
            settings: { [SECTION]: settingsFor(undefined) },
          });
        }
      }),
    );
  }

  get isRunning(): boolean {
    return this.client?.state === State.Running;
  }

  /** Restart when the Python extension's active environment changes and we use it. */
  async watchPythonExtension(): Promise<void> {
    const disposable = await onActiveEnvironmentChanged(() => {
      if (this.interpreter?.source === "pythonExtension") {
        void this.restart();
      }
    });
    if (disposable) {
      this.disposables.push(disposable);
    }
  }

  async start(): Promise<void> {
    if (!this.starting) {
      this.starting = this.doStart().finally(() => (this.starting = undefined));
    }
    return this.starting;
  }

  async restart(): Promise<void> {
    await this.starting;
    await this.stop();
    await this.start();
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        await client.stop(5000);
      } catch (err) {
        this.output.warn(`stopping the server: ${String(err)}`);
      }
      await client.dispose();
    }
  }

  private async doStart(): Promise<void> {
    const folder = firstFolder();
    const clientSettings = toClientSettings(vscode.workspace.getConfiguration(SECTION, folder?.uri), pathContext(folder));
    const fromPython = clientSettings.interpreter.length ? undefined : await activeEnvironmentCommand(folder?.uri);
    this.interpreter = chooseInterpreter(clientSettings.interpreter, fromPython);
    const bundled = path.join(this.context.extensionPath, "bundled", "libs");
    const proc = serverProcess(this.interpreter, clientSettings.importStrategy, bundled);
    this.output.info(
      `interpreter (${this.interpreter.source}): ${this.interpreter.command.join(" ")}; ` +
        `import strategy: ${clientSettings.importStrategy}`,
    );

    const check = await checkPython(proc);
    if (!check.ok) {
      this.reportBadPython(check, this.interpreter, clientSettings.importStrategy);
      return;
    }
    this.output.info(`Python ${check.version} at ${check.executable}; msmigrate ${check.msmigrateVersion}`);

    // stdio by default; no `transport` here, or vscode-languageclient appends `--stdio` to the arguments.
    const serverOptions: ServerOptions = {
      command: proc.command,
      args: proc.args,
      options: { env: proc.env, cwd: folder?.uri.fsPath },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: "file", language: "python" },
        { scheme: "untitled", language: "python" },
      ],
      outputChannel: this.output,
      traceOutputChannel: this.output,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationOptions: { [SECTION]: settingsFor(undefined) },
      middleware: {
        workspace: {
          // Answer workspace/configuration for our section with the validated mapping.
          configuration: async (params, token, next) => {
            const answers = await next(params, token);
            if (!Array.isArray(answers)) {
              return answers;
            }
            return answerConfiguration(params.items, answers, (scope) =>
              settingsFor(scope ? vscode.Uri.parse(scope) : undefined),
            );
          },
        },
        executeCommand: async (command, args, next) => {
          const own = this.hooks.takeOver?.(command, args);
          if (own) {
            return own;
          }
          const result = await next(command, args);
          this.hooks.onCommandResult(command, args, result);
          return result;
        },
        window: {
          showDocument: async (params, next) => {
            const uri = vscode.Uri.parse(params.uri);
            if (/\.html?$/i.test(uri.path) && uri.scheme === "file") {
              return { success: await this.hooks.showReport(uri, params.takeFocus ?? true) };
            }
            const result = await next(params, new vscode.CancellationTokenSource().token);
            return "success" in result ? result : { success: false };
          },
        },
      },
    };
    const client = new LanguageClient("msmigrate", vscode.l10n.t("MindSpore Migration"), serverOptions, clientOptions);
    this.client = client;
    try {
      await client.start();
    } catch (err) {
      this.output.error(`the language server did not start: ${String(err)}`);
      void vscode.window
        .showErrorMessage(vscode.l10n.t("The MindSpore migration server did not start: {0}", String(err)), vscode.l10n.t("Show Output"))
        .then((choice) => choice && this.output.show());
    }
  }

  private reportBadPython(check: CheckResult, choice: InterpreterChoice, strategy: string): void {
    const exe = choice.command.join(" ");
    this.output.error(`Python check failed (${check.problem}): ${check.detail ?? ""}`);
    let message: string;
    switch (check.problem) {
      case "notFound":
        message = vscode.l10n.t(
          'Python interpreter "{0}" was not found. Install Python 3.11 or newer, or set "msmigrate.interpreter" to its path.',
          exe,
        );
        break;
      case "tooOld":
        message = vscode.l10n.t(
          'MindSpore Migration needs Python 3.11 or newer, but "{0}" is Python {1}. Select a newer interpreter.',
          exe,
          check.version ?? "?",
        );
        break;
      case "noMsmigrate":
        message =
          strategy === "fromEnvironment"
            ? vscode.l10n.t(
                'msmigrate is not installed for "{0}". Run "{0} -m pip install msmigrate", or set "msmigrate.importStrategy" to "useBundled".',
                exe,
              )
            : vscode.l10n.t(
                'The msmigrate copy bundled with this extension could not be imported by "{0}" ({1}). Reinstall the extension.',
                exe,
                check.detail ?? "",
              );
        break;
      default:
        message = vscode.l10n.t('"{0}" could not be run: {1}', exe, check.detail ?? "");
    }
    const select = vscode.l10n.t("Select Interpreter");
    const settings = vscode.l10n.t("Open Settings");
    const output = vscode.l10n.t("Show Output");
    const actions = pythonExtensionInstalled() ? [select, settings, output] : [settings, output];
    void vscode.window.showErrorMessage(message, ...actions).then((pick) => {
      if (pick === select) {
        void vscode.commands.executeCommand("python.setInterpreter");
      } else if (pick === settings) {
        void vscode.commands.executeCommand("workbench.action.openSettings", "msmigrate.interpreter");
      } else if (pick === output) {
        this.output.show();
      }
    });
  }

  /**
   * Runs a server command (workspace/executeCommand) with a client work-done token, so that the
   * server's progress reaches `onProgress`; cancelling the token cancels the request.
   */
  async execute<T>(
    command: string,
    args: unknown[],
    onProgress?: (report: ProgressReport) => void,
    cancel?: vscode.CancellationToken,
  ): Promise<T> {
    if (!this.client || this.client.state !== State.Running) {
      await this.start();
    }
    const client = this.client;
    if (!client || client.state !== State.Running) {
      throw new Error(vscode.l10n.t("The MindSpore migration server is not running. See the output for details."));
    }
    const token = randomUUID();
    const progress = onProgress
      ? client.onProgress(WorkDoneProgress.type, token, (value) => {
          if (value.kind !== "end") {
            onProgress({ message: value.message, percentage: value.percentage });
          }
        })
      : undefined;
    const cancelling = cancel?.onCancellationRequested(() => {
      void client.sendNotification(WorkDoneProgressCancelNotification.type, { token });
    });
    try {
      const result = (await client.sendRequest(
        ExecuteCommandRequest.type,
        { command, arguments: args, workDoneToken: token },
        cancel,
      )) as T;
      this.hooks.onCommandResult(command, args, result);
      return result;
    } finally {
      progress?.dispose();
      cancelling?.dispose();
    }
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
    void this.stop();
  }
}
