// The `msmigrate` settings: what the client reads for itself and what it hands to the server.
// Pure functions over a small configuration reader, so they run in unit tests without VS Code.

import {
  DEVICES,
  FINDING_CATEGORIES,
  FindingCategory,
  IMPORT_STRATEGIES,
  LANGUAGES,
  MINDSPORE_VERSIONS,
  SECTION,
  SEVERITY_LEVELS,
  SeverityLevel,
} from "./protocol";

// The choices are the server's (generated into protocol.ts by `msmigrate dev generate`).
export { DEVICES, IMPORT_STRATEGIES, LANGUAGES, MINDSPORE_VERSIONS, SECTION, SEVERITY_LEVELS, SeverityLevel };
/** Every finding category has a `severity.<category>` setting. */
export const SEVERITY_CATEGORIES = FINDING_CATEGORIES;

export type SeverityCategory = FindingCategory;
export type ImportStrategy = (typeof IMPORT_STRATEGIES)[number];

/** The `msmigrate` section as the server reads it (docs/ARCHITECTURE.md, "Language-server settings"). */
export interface ServerSettings {
  mindsporeVersion: (typeof MINDSPORE_VERSIONS)[number];
  language: (typeof LANGUAGES)[number];
  /** Only the categories the user set; the others keep each rule's own severity. */
  severity: Partial<Record<SeverityCategory, SeverityLevel>>;
  include: string[];
  exclude: string[];
  codeLens: boolean;
  device: (typeof DEVICES)[number];
  pythonPath: string;
  disabledRules: string[];
  /** Files not open in the editor larger than this are skipped by scans ("10MB", "512KB", bytes). */
  maxFileSize: string;
}

/** Settings only the client uses (how to start the server). */
export interface ClientSettings {
  interpreter: string[];
  importStrategy: ImportStrategy;
}

export const SERVER_DEFAULTS: ServerSettings = {
  mindsporeVersion: "auto",
  language: "en",
  severity: {},
  include: [],
  exclude: [],
  codeLens: true,
  device: "CPU",
  pythonPath: "",
  disabledRules: [],
  maxFileSize: "10MB",
};

/** Settings whose change needs a new server process rather than a configuration notification. */
export const RESTART_KEYS = ["interpreter", "importStrategy"].map((k) => `${SECTION}.${k}`);

/** The part of `vscode.WorkspaceConfiguration` the mapping needs. */
export interface ConfigReader {
  get<T>(key: string): T | undefined;
  inspect<T>(key: string):
    | {
        globalValue?: T;
        workspaceValue?: T;
        workspaceFolderValue?: T;
      }
    | undefined;
}

/** Where `${...}` variables in path settings point. */
export interface PathContext {
  workspaceFolder?: string;
  userHome: string;
  /** VS Code's display language (`vscode.env.language`), e.g. `en`, `zh-cn`. */
  uiLanguage: string;
}

function isExplicit(config: ConfigReader, key: string): boolean {
  const info = config.inspect<unknown>(key);
  if (!info) {
    return false;
  }
  return [info.globalValue, info.workspaceValue, info.workspaceFolderValue].some((v) => v !== undefined);
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return typeof value === "string" && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

function stringList(value: unknown): string[] {
  if (typeof value === "string") {
    return value.trim() ? [value.trim()] : [];
  }
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.trim() !== "") : [];
}

/** Expands `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and a leading `~` in a path setting. */
export function expandVariables(value: string, ctx: PathContext, env: NodeJS.ProcessEnv = process.env): string {
  let out = value.replace(/\$\{(workspaceFolder|userHome|env:([^}]+))\}/g, (whole, name: string, envName?: string) => {
    if (envName !== undefined) {
      return env[envName] ?? "";
    }
    if (name === "workspaceFolder") {
      return ctx.workspaceFolder ?? whole;
    }
    return ctx.userHome;
  });
  if (out === "~" || out.startsWith("~/") || out.startsWith("~\\")) {
    out = ctx.userHome + out.slice(1);
  }
  return out;
}

/** Language for the server: the user's explicit choice, else VS Code's display language. */
export function serverLanguage(config: ConfigReader, uiLanguage: string): ServerSettings["language"] {
  if (isExplicit(config, "language")) {
    return oneOf(config.get("language"), LANGUAGES, "en");
  }
  return uiLanguage.toLowerCase().startsWith("zh") ? "zh" : "en";
}

/** Maps the `msmigrate` configuration to the object the server receives (validated, variables expanded). */
export function toServerSettings(config: ConfigReader, ctx: PathContext): ServerSettings {
  const severity: ServerSettings["severity"] = {};
  for (const category of SEVERITY_CATEGORIES) {
    const key = `severity.${category}`;
    if (isExplicit(config, key)) {
      const value = config.get(key);
      if (typeof value === "string" && (SEVERITY_LEVELS as readonly string[]).includes(value)) {
        severity[category] = value as SeverityLevel;
      }
    }
  }
  const pythonPath = config.get<string>("pythonPath");
  const maxFileSize = config.get<unknown>("maxFileSize");
  return {
    mindsporeVersion: oneOf(config.get("mindsporeVersion"), MINDSPORE_VERSIONS, SERVER_DEFAULTS.mindsporeVersion),
    language: serverLanguage(config, ctx.uiLanguage),
    severity,
    include: stringList(config.get("include")),
    exclude: stringList(config.get("exclude")),
    codeLens: typeof config.get("codeLens") === "boolean" ? (config.get<boolean>("codeLens") as boolean) : true,
    device: oneOf(config.get("device"), DEVICES, SERVER_DEFAULTS.device),
    pythonPath: typeof pythonPath === "string" && pythonPath.trim() ? expandVariables(pythonPath.trim(), ctx) : "",
    disabledRules: stringList(config.get("disabledRules")).map((r) => r.trim().toUpperCase()),
    maxFileSize: typeof maxFileSize === "string" && maxFileSize.trim() ? maxFileSize.trim() : SERVER_DEFAULTS.maxFileSize,
  };
}

export function toClientSettings(config: ConfigReader, ctx: PathContext): ClientSettings {
  return {
    interpreter: stringList(config.get("interpreter")).map((p) => expandVariables(p, ctx)),
    importStrategy: oneOf(config.get("importStrategy"), IMPORT_STRATEGIES, "useBundled"),
  };
}

/**
 * Answers a workspace/configuration request: items for our section get the mapped settings of their
 * scope, all others keep VS Code's own answer.
 */
export function answerConfiguration(
  items: { section?: string; scopeUri?: string }[],
  answers: unknown[],
  ours: (scopeUri: string | undefined) => ServerSettings,
): unknown[] {
  return items.map((item, i) => (item.section === SECTION ? ours(item.scopeUri) : answers[i]));
}
