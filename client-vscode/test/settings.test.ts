import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import {
  answerConfiguration,
  ConfigReader,
  expandVariables,
  PathContext,
  SERVER_DEFAULTS,
  SEVERITY_CATEGORIES,
  toClientSettings,
  toServerSettings,
} from "../src/settings";

const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));
const properties: Record<string, { default: unknown; enum?: string[] }> = pkg.contributes.configuration.properties;

/** A configuration like VS Code's: contributed defaults, overridden by what the user set. */
function config(user: Record<string, unknown>, scope: "globalValue" | "workspaceFolderValue" = "globalValue"): ConfigReader {
  return {
    get<T>(key: string): T | undefined {
      if (key in user) {
        return user[key] as T;
      }
      return properties[`msmigrate.${key}`]?.default as T | undefined;
    },
    inspect<T>(key: string) {
      return key in user ? { [scope]: user[key] as T } : {};
    },
  };
}

const ctx: PathContext = { workspaceFolder: "/ws", userHome: "/home/me", uiLanguage: "en" };

describe("toServerSettings", () => {
  it("maps the contributed defaults to the server defaults", () => {
    assert.deepEqual(toServerSettings(config({}), ctx), SERVER_DEFAULTS);
  });

  it("sends only the severities the user set, so other rules keep their own", () => {
    const s = toServerSettings(
      config({ "severity.missing": "error", "severity.consistent": "off", "severity.sparse": "loud" }),
      ctx,
    );
    assert.deepEqual(s.severity, { missing: "error", consistent: "off" });
  });

  it("passes explicit values through, validated and expanded", () => {
    const s = toServerSettings(
      config(
        {
          mindsporeVersion: "2.3",
          language: "zh",
          include: ["src/**/*.py", 7, ""],
          exclude: "legacy/",
          codeLens: false,
          device: "Ascend",
          pythonPath: "${workspaceFolder}/.venv/bin/python",
          disabledRules: ["msm100", " MSM201 "],
          maxFileSize: " 2MB ",
        },
        "workspaceFolderValue",
      ),
      ctx,
    );
    assert.deepEqual(s, {
      mindsporeVersion: "2.3",
      language: "zh",
      severity: {},
      include: ["src/**/*.py"],
      exclude: ["legacy/"],
      codeLens: false,
      device: "Ascend",
      pythonPath: "/ws/.venv/bin/python",
      disabledRules: ["MSM100", "MSM201"],
      maxFileSize: "2MB",
    });
  });

  it("falls back to defaults for values outside the allowed sets", () => {
    const s = toServerSettings(config({ mindsporeVersion: "3.0", device: "TPU", codeLens: "yes", maxFileSize: 5 }), ctx);
    assert.equal(s.maxFileSize, "10MB");
    assert.equal(s.mindsporeVersion, "auto");
    assert.equal(s.device, "CPU");
    assert.equal(s.codeLens, true);
  });

  it("follows VS Code's display language unless the language is set", () => {
    assert.equal(toServerSettings(config({}), { ...ctx, uiLanguage: "zh-cn" }).language, "zh");
    assert.equal(toServerSettings(config({}), { ...ctx, uiLanguage: "zh-tw" }).language, "zh");
    assert.equal(toServerSettings(config({}), { ...ctx, uiLanguage: "de" }).language, "en");
    assert.equal(toServerSettings(config({ language: "en" }), { ...ctx, uiLanguage: "zh-cn" }).language, "en");
  });
});

describe("toClientSettings", () => {
  it("reads the interpreter command and import strategy", () => {
    assert.deepEqual(toClientSettings(config({}), ctx), { interpreter: [], importStrategy: "useBundled" });
    assert.deepEqual(
      toClientSettings(config({ interpreter: ["~/py/bin/python", "-X", "utf8"], importStrategy: "fromEnvironment" }), ctx),
      { interpreter: ["/home/me/py/bin/python", "-X", "utf8"], importStrategy: "fromEnvironment" },
    );
    assert.deepEqual(toClientSettings(config({ interpreter: "/usr/bin/python3.12", importStrategy: "x" }), ctx), {
      interpreter: ["/usr/bin/python3.12"],
      importStrategy: "useBundled",
    });
  });
});

describe("expandVariables", () => {
  it("expands workspaceFolder, userHome, env and a leading ~", () => {
    assert.equal(expandVariables("${workspaceFolder}/a", ctx), "/ws/a");
    assert.equal(expandVariables("${userHome}/b", ctx), "/home/me/b");
    assert.equal(expandVariables("~/c", ctx), "/home/me/c");
    assert.equal(expandVariables("${env:MSM_TEST_VAR}/d", ctx, { MSM_TEST_VAR: "/opt" }), "/opt/d");
    assert.equal(expandVariables("${workspaceFolder}/a", { ...ctx, workspaceFolder: undefined }), "${workspaceFolder}/a");
    assert.equal(expandVariables("a~b", ctx), "a~b");
  });
});

describe("package.json contributes every server setting", () => {
  const serverKeys = [
    "mindsporeVersion",
    "language",
    ...SEVERITY_CATEGORIES.map((c) => `severity.${c}`),
    "include",
    "exclude",
    "codeLens",
    "device",
    "pythonPath",
    "disabledRules",
    "maxFileSize",
  ];

  it("lists the ARCHITECTURE.md settings plus the client's own", () => {
    assert.deepEqual(
      Object.keys(properties).sort(),
      [...serverKeys, "interpreter", "importStrategy", "trace.server"].map((k) => `msmigrate.${k}`).sort(),
    );
  });

  it("uses the documented value sets", () => {
    assert.deepEqual(properties["msmigrate.mindsporeVersion"].enum, ["auto", "1.10", "2.3", "2.4", "2.6"]);
    assert.deepEqual(properties["msmigrate.language"].enum, ["en", "zh"]);
    assert.deepEqual(properties["msmigrate.device"].enum, ["CPU", "GPU", "Ascend"]);
    for (const c of SEVERITY_CATEGORIES) {
      assert.deepEqual(properties[`msmigrate.severity.${c}`].enum, ["default", "error", "warning", "information", "hint", "off"]);
    }
  });

  it("has the same defaults as the PyCharm template's settings.json", () => {
    const templateSettings = JSON.parse(
      fs.readFileSync(path.join(__dirname, "..", "..", "..", "client-pycharm", "lsp4ij-template", "settings.json"), "utf8"),
    ).msmigrate;
    for (const key of serverKeys) {
      const [head, tail] = key.split(".");
      const templateValue = tail ? templateSettings[head][tail] : templateSettings[head];
      assert.deepEqual(properties[`msmigrate.${key}`].default, templateValue, key);
    }
  });
});

describe("answerConfiguration", () => {
  it("answers our section with the mapped settings of the item's scope and leaves other sections alone", () => {
    const scopes: (string | undefined)[] = [];
    const answers = answerConfiguration(
      [{ section: "msmigrate", scopeUri: "file:///ws/a.py" }, { section: "python" }, { section: "msmigrate" }],
      [{ raw: 1 }, { python: true }, { raw: 2 }],
      (scope) => {
        scopes.push(scope);
        return { ...SERVER_DEFAULTS, device: scope ? "GPU" : "CPU" };
      },
    );
    assert.deepEqual(answers, [{ ...SERVER_DEFAULTS, device: "GPU" }, { python: true }, SERVER_DEFAULTS]);
    assert.deepEqual(scopes, ["file:///ws/a.py", undefined]);
  });
});
