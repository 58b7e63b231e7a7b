// Runs bundle_python.py with the project's interpreter: $MSMIGRATE_PYTHON, else the repo's .venv, else python3.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const extension = resolve(here, "..");
const repo = resolve(extension, "..");
const venv = process.platform === "win32" ? join(repo, ".venv", "Scripts", "python.exe") : join(repo, ".venv", "bin", "python");
const python = process.env.MSMIGRATE_PYTHON || (existsSync(venv) ? venv : process.platform === "win32" ? "python" : "python3");

const result = spawnSync(python, [join(here, "bundle_python.py"), repo, join(extension, "bundled")], { stdio: "inherit" });
if (result.error) {
  console.error(`bundle-python: cannot run ${python}: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
