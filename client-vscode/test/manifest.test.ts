// The manifest, its translations and the runtime-string bundle agree with each other and with the code.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { SERVER_COMMANDS } from "../src/protocol";

const dir = path.join(__dirname, "..", "..");
const read = (f: string): string => fs.readFileSync(path.join(dir, f), "utf8");
const pkg = JSON.parse(read("package.json"));
const nlsEn: Record<string, string> = JSON.parse(read("package.nls.json"));
const nlsZh: Record<string, string> = JSON.parse(read("package.nls.zh-cn.json"));
const bundleZh: Record<string, string> = JSON.parse(read("l10n/bundle.l10n.zh-cn.json"));

/** First string argument of every vscode.l10n.t(...) call in src/. */
function runtimeStrings(): Set<string> {
  const re = /l10n\.t\(\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/g;
  const found = new Set<string>();
  for (const file of fs.readdirSync(path.join(dir, "src"))) {
    const text = read(path.join("src", file));
    for (const m of text.matchAll(re)) {
      const literal = m[1];
      found.add(literal.startsWith("'") ? literal.slice(1, -1).replace(/\\'/g, "'") : JSON.parse(literal));
    }
  }
  return found;
}

describe("translations", () => {
  it("has every %key% of package.json in English and Chinese", () => {
    const keys = [...JSON.stringify(pkg).matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]);
    assert.ok(keys.length > 40);
    for (const key of keys) {
      assert.ok(nlsEn[key], `package.nls.json lacks ${key}`);
      assert.ok(nlsZh[key], `package.nls.zh-cn.json lacks ${key}`);
    }
    assert.deepEqual(Object.keys(nlsZh).sort(), Object.keys(nlsEn).sort());
  });

  it("translates every runtime string and nothing stale", () => {
    const strings = runtimeStrings();
    assert.ok(strings.size > 40);
    const missing = [...strings].filter((s) => !(s in bundleZh));
    assert.deepEqual(missing, []);
    const stale = Object.keys(bundleZh).filter((s) => !strings.has(s));
    assert.deepEqual(stale, []);
  });

  it("keeps placeholders in translations", () => {
    for (const [en, zh] of Object.entries(bundleZh)) {
      const placeholders = (s: string): string[] => [...new Set(s.match(/\{\d+\}/g) ?? [])].sort();
      assert.deepEqual(placeholders(zh), placeholders(en), en);
    }
  });
});

describe("commands and menus", () => {
  const commands: { command: string; title: string }[] = pkg.contributes.commands;
  const ids = new Set(commands.map((c) => c.command));
  const serverCommands = Object.values(SERVER_COMMANDS);

  it("offers the issue's palette commands", () => {
    const titles = commands.map((c) => nlsEn[c.title.slice(1, -1)]);
    for (const title of [
      "Scan Project",
      "Scan Current File",
      "Fix All in File",
      "Check Operator Equivalence",
      "Export Scan Report…",
      "Look Up PyTorch API…",
      "Compare Model with Its PyTorch Original",
      "Restart Server",
      "Show Output",
    ]) {
      assert.ok(titles.includes(title), title);
    }
  });

  it("never registers a server command id (vscode-languageclient registers those)", () => {
    for (const id of serverCommands) {
      assert.ok(!ids.has(id), id);
    }
  });

  it("only refers to contributed commands in menus, and every command is registered in the code", () => {
    const src = fs.readdirSync(path.join(dir, "src")).map((f) => read(path.join("src", f))).join("\n");
    for (const [menu, entries] of Object.entries(pkg.contributes.menus) as [string, { command: string }[]][]) {
      for (const entry of entries) {
        assert.ok(ids.has(entry.command), `${menu}: ${entry.command}`);
      }
    }
    for (const id of ids) {
      assert.ok(src.includes(`"${id}"`), `${id} is not registered in src/`);
    }
  });

  it("offers Scan Project in the empty view", () => {
    const welcome = pkg.contributes.viewsWelcome.map((w: { contents: string }) => nlsEn[w.contents.slice(1, -1)]);
    assert.ok(welcome[0].includes("[Scan Project](command:msmigrate.scanWorkspace)"));
  });
});
