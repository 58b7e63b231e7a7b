import { strict as assert } from "node:assert";
import * as path from "node:path";
import { describe, it } from "node:test";
import { chooseInterpreter, defaultPython, serverProcess } from "../src/interpreter";
import { checkPython, classifyCheck } from "../src/pythonCheck";

describe("chooseInterpreter", () => {
  it("prefers the msmigrate.interpreter setting", () => {
    assert.deepEqual(chooseInterpreter(["/opt/py/bin/python"], ["/env/bin/python"], "linux"), {
      command: ["/opt/py/bin/python"],
      source: "setting",
    });
  });
  it("uses the Python extension's active environment when the setting is empty", () => {
    assert.deepEqual(chooseInterpreter([], ["/env/bin/python"], "linux"), {
      command: ["/env/bin/python"],
      source: "pythonExtension",
    });
  });
  it("falls back to python3 (python on Windows)", () => {
    assert.deepEqual(chooseInterpreter([], undefined, "linux"), { command: ["python3"], source: "default" });
    assert.deepEqual(chooseInterpreter([], [""], "darwin"), { command: ["python3"], source: "default" });
    assert.deepEqual(chooseInterpreter([], undefined, "win32"), { command: ["python"], source: "default" });
    assert.equal(defaultPython("win32"), "python");
  });
});

describe("serverProcess", () => {
  const bundled = path.join("/ext", "bundled", "libs");
  it("runs `-m msmigrate serve` after the interpreter's own arguments", () => {
    const p = serverProcess({ command: ["py", "-3.11"], source: "setting" }, "fromEnvironment", bundled, {});
    assert.equal(p.command, "py");
    assert.deepEqual(p.args, ["-3.11", "-m", "msmigrate", "serve"]);
    assert.equal(p.env.PYTHONPATH, undefined);
    assert.equal(p.env.PYTHONUTF8, "1");
    assert.equal(p.env.PYTHONSAFEPATH, "1"); // the workspace folder (its cwd) is never on sys.path
  });
  it("puts the bundled libraries first on PYTHONPATH with useBundled", () => {
    const p = serverProcess({ command: ["python3"], source: "default" }, "useBundled", bundled, { PYTHONPATH: "/mine" });
    assert.equal(p.env.PYTHONPATH, `${bundled}${path.delimiter}/mine`);
    const q = serverProcess({ command: ["python3"], source: "default" }, "useBundled", bundled, {});
    assert.equal(q.env.PYTHONPATH, bundled);
  });
});

describe("classifyCheck", () => {
  it("recognises a missing interpreter", () => {
    assert.deepEqual(classifyCheck({ spawnError: "ENOENT", exitCode: null, stdout: "", stderr: "" }), {
      ok: false,
      problem: "notFound",
      detail: "ENOENT",
    });
  });
  it("recognises an interpreter that fails", () => {
    const r = classifyCheck({ exitCode: 1, stdout: "", stderr: "Fatal Python error: init_fs_encoding\n" });
    assert.equal(r.problem, "notRunnable");
    assert.equal(r.detail, "Fatal Python error: init_fs_encoding");
  });
  it("recognises an old Python", () => {
    const r = classifyCheck({ exitCode: 0, stdout: '{"version": [3, 8, 10], "executable": "/usr/bin/python3", "msmigrate": null}', stderr: "" });
    assert.deepEqual(r, { ok: false, problem: "tooOld", version: "3.8.10", executable: "/usr/bin/python3" });
  });
  it("recognises a Python without msmigrate", () => {
    const r = classifyCheck({
      exitCode: 0,
      stdout: 'noise\n{"version": [3, 12, 1], "executable": "/p", "msmigrate": null, "error": "ModuleNotFoundError(\'msmigrate\')"}\n',
      stderr: "",
    });
    assert.equal(r.problem, "noMsmigrate");
    assert.equal(r.detail, "ModuleNotFoundError('msmigrate')");
  });
  it("accepts a good interpreter", () => {
    const r = classifyCheck({ exitCode: 0, stdout: '{"version": [3, 11, 7], "executable": "/p", "msmigrate": "0.1.0"}', stderr: "" });
    assert.deepEqual(r, { ok: true, version: "3.11.7", executable: "/p", msmigrateVersion: "0.1.0" });
  });
});

describe("checkPython (real processes)", () => {
  const serverDir = path.join(__dirname, "..", "..", "..", "server");
  it("finds msmigrate through PYTHONPATH with a real python3", async () => {
    const proc = serverProcess({ command: ["python3", "-S"], source: "default" }, "useBundled", serverDir, { ...process.env, PYTHONPATH: "" });
    const r = await checkPython(proc);
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.msmigrateVersion, "0.1.0");
  });
  it("reports a missing interpreter as notFound", async () => {
    const proc = serverProcess({ command: ["/nonexistent/python-msmigrate-test"], source: "setting" }, "useBundled", serverDir);
    const r = await checkPython(proc);
    assert.equal(r.problem, "notFound");
  });
  it("reports an interpreter without msmigrate", async () => {
    const proc = serverProcess({ command: ["python3", "-I", "-S"], source: "setting" }, "fromEnvironment", serverDir, { PATH: process.env.PATH });
    const r = await checkPython(proc);
    assert.equal(r.problem, "noMsmigrate");
  });
});
