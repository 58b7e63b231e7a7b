// Before starting the server: does the chosen Python run, is it new enough, can it import msmigrate?

import { execFile } from "child_process";
import type { ServerProcess } from "./interpreter";

export const MIN_PYTHON: [number, number] = [3, 11];

/** Prints what the client needs to know as one JSON line; never raises. */
export const CHECK_SCRIPT = [
  "import json, sys",
  "info = {'version': list(sys.version_info[:3]), 'executable': sys.executable}",
  "try:",
  "    import msmigrate",
  "    info['msmigrate'] = getattr(msmigrate, '__version__', '?')",
  "    info['location'] = msmigrate.__file__",
  "except Exception as exc:",
  "    info['msmigrate'] = None",
  "    info['error'] = repr(exc)",
  "print(json.dumps(info))",
].join("\n");

export interface RawCheck {
  /** `ENOENT`, `EACCES`, … when the process could not start. */
  spawnError?: string;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export type Problem = "notFound" | "notRunnable" | "tooOld" | "noMsmigrate";

export interface CheckResult {
  ok: boolean;
  problem?: Problem;
  version?: string;
  executable?: string;
  msmigrateVersion?: string;
  /** What went wrong, for the output channel. */
  detail?: string;
}

function lastJsonLine(text: string): Record<string, unknown> | undefined {
  const lines = text.split(/\r?\n/).filter((l) => l.trim().startsWith("{"));
  if (lines.length === 0) {
    return undefined;
  }
  try {
    return JSON.parse(lines[lines.length - 1]) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Turns the check process's outcome into a verdict (pure, unit-tested). */
export function classifyCheck(raw: RawCheck): CheckResult {
  if (raw.spawnError === "ENOENT") {
    return { ok: false, problem: "notFound", detail: raw.spawnError };
  }
  if (raw.spawnError) {
    return { ok: false, problem: "notRunnable", detail: raw.spawnError };
  }
  const info = lastJsonLine(raw.stdout);
  if (raw.exitCode !== 0 || !info || !Array.isArray(info.version)) {
    return { ok: false, problem: "notRunnable", detail: (raw.stderr || raw.stdout).trim().slice(-2000) };
  }
  const [major, minor, micro] = info.version as number[];
  const version = `${major}.${minor}.${micro}`;
  const executable = typeof info.executable === "string" ? info.executable : undefined;
  if (major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1])) {
    return { ok: false, problem: "tooOld", version, executable };
  }
  if (typeof info.msmigrate !== "string") {
    return {
      ok: false,
      problem: "noMsmigrate",
      version,
      executable,
      detail: typeof info.error === "string" ? info.error : undefined,
    };
  }
  return { ok: true, version, executable, msmigrateVersion: info.msmigrate };
}

/** Runs CHECK_SCRIPT with the server's interpreter and environment. */
export function checkPython(proc: ServerProcess, timeoutMs = 20000): Promise<CheckResult> {
  const prefix = proc.args.slice(0, proc.args.indexOf("-m"));
  return new Promise((resolve) => {
    execFile(
      proc.command,
      [...prefix, "-c", CHECK_SCRIPT],
      { env: proc.env, timeout: timeoutMs, windowsHide: true },
      (error, stdout, stderr) => {
        const code = (error as NodeJS.ErrnoException | null)?.code;
        const spawnError = typeof code === "string" ? code : undefined;
        const exitCode = error ? (typeof code === "number" ? code : 1) : 0;
        resolve(classifyCheck({ spawnError, exitCode, stdout: String(stdout), stderr: String(stderr) }));
      },
    );
  });
}
