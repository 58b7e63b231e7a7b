// Shows an HTML report in a webview: no scripts, no remote content, links open in the browser; a page the
// client made may allow named command URIs (the comparison's links to source lines).

import * as vscode from "vscode";

/** The Content-Security-Policy every report page gets: only inline styles and the webview's own images. */
export function reportCsp(cspSource: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `style-src ${cspSource} 'unsafe-inline'`,
    `font-src ${cspSource}`,
    "script-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join("; ");
}

/** Puts our CSP meta tag first in `<head>` (browsers apply every policy present, so ours always holds). */
export function withCsp(html: string, cspSource: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${reportCsp(cspSource)}">`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) {
    const at = head.index + head[0].length;
    return `${html.slice(0, at)}\n${meta}${html.slice(at)}`;
  }
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  const at = doctype ? doctype[0].length : 0;
  return `${html.slice(0, at)}<head>${meta}</head>${html.slice(at)}`;
}

export class ReportPanel {
  private panel: vscode.WebviewPanel | undefined;
  private lastUri: vscode.Uri | undefined;

  get lastReport(): vscode.Uri | undefined {
    return this.lastUri;
  }

  async show(uri: vscode.Uri, preserveFocus = false): Promise<void> {
    const bytes = await vscode.workspace.fs.readFile(uri);
    this.showHtml(new TextDecoder("utf-8").decode(bytes), preserveFocus);
    this.lastUri = uri;
  }

  /**
   * Shows a page made by the client (the model comparison). `commands`: the only command URIs its links
   * may run (none for the server's HTML reports).
   */
  showHtml(html: string, preserveFocus = false, commands: readonly string[] = []): void {
    const options: vscode.WebviewOptions = {
      enableScripts: false,
      enableCommandUris: commands.length ? commands : false,
      localResourceRoots: [],
    };
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
        "msmigrate.report",
        vscode.l10n.t("MindSpore Migration Report"),
        { viewColumn: vscode.ViewColumn.Active, preserveFocus },
        { ...options, enableFindWidget: true },
      );
      this.panel.onDidDispose(() => (this.panel = undefined));
    } else {
      this.panel.webview.options = options;
      this.panel.reveal(undefined, preserveFocus);
    }
    this.panel.webview.html = withCsp(html, this.panel.webview.cspSource);
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
