// A small stand-in for the `vscode` module: just what the unit-tested modules touch.
/* eslint-disable @typescript-eslint/no-explicit-any */

import * as path from "path";

export class EventEmitter<T> {
  private listeners: ((e: T) => void)[] = [];
  fired: T[] = [];
  event = (listener: (e: T) => void): { dispose(): void } => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(e: T): void {
    this.fired.push(e);
    this.listeners.forEach((l) => l(e));
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly fsPath: string,
  ) {}
  static file(p: string): Uri {
    return new Uri("file", path.normalize(p));
  }
  static parse(s: string): Uri {
    return s.startsWith("file://") ? new Uri("file", decodeURIComponent(s.slice(7))) : new Uri("unknown", s);
  }
  get path(): string {
    return this.fsPath.split(path.sep).join("/");
  }
  toString(): string {
    return `${this.scheme}://${this.path}`;
  }
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class ThemeIcon {
  static readonly File = new ThemeIcon("file");
  static readonly Folder = new ThemeIcon("folder");
  constructor(readonly id: string) {}
}

export class MarkdownString {
  value = "";
  appendText(text: string): MarkdownString {
    this.value += text;
    return this;
  }
}

export class TreeItem {
  description?: string;
  tooltip?: string | MarkdownString;
  iconPath?: ThemeIcon;
  contextValue?: string;
  resourceUri?: Uri;
  command?: { command: string; title: string; arguments?: unknown[] };
  constructor(
    readonly label: string,
    readonly collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

export enum DiagnosticSeverity {
  Error = 0,
  Warning = 1,
  Information = 2,
  Hint = 3,
}

/** vscode.l10n.t: English text with `{n}` placeholders filled (no bundle loaded in tests). */
export const l10n = {
  t(message: string, ...args: unknown[]): string {
    return message.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)]));
  },
};

export const env = { language: "en" };

export const extensions = {
  installed: new Map<string, any>(),
  getExtension(id: string): any {
    return this.installed.get(id);
  },
};

export const workspace = {
  workspaceFolders: undefined as any,
  getConfiguration(): any {
    throw new Error("not used in unit tests");
  },
};

export enum ViewColumn {
  Active = -1,
  One = 1,
}

/** A webview panel that records what it was given (the report panel's tests). */
export class FakeWebviewPanel {
  readonly webview = { options: {} as any, html: "", cspSource: "vscode-webview://test" };
  revealed = 0;
  private disposeListeners: (() => void)[] = [];
  constructor(
    readonly viewType: string,
    readonly title: string,
    readonly showOptions: any,
    options: any,
  ) {
    this.webview.options = options;
  }
  reveal(): void {
    this.revealed += 1;
  }
  onDidDispose(listener: () => void): void {
    this.disposeListeners.push(listener);
  }
  dispose(): void {
    this.disposeListeners.forEach((l) => l());
  }
}

export const window = {
  panels: [] as FakeWebviewPanel[],
  createWebviewPanel(viewType: string, title: string, showOptions: any, options: any): FakeWebviewPanel {
    const panel = new FakeWebviewPanel(viewType, title, showOptions, options);
    this.panels.push(panel);
    return panel;
  },
};
