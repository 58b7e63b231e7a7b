// Which Python runs the server, and with which environment.
// Order: the `msmigrate.interpreter` setting when set, else the Python extension's active environment
// (ms-python.python, optional), else `python3` (`python` on Windows).

import * as path from "path";
import type { ImportStrategy } from "./settings";

export type InterpreterSource = "setting" | "pythonExtension" | "default";

export interface InterpreterChoice {
  /** The executable and any arguments before `-m msmigrate serve` (e.g. `["py", "-3.11"]`). */
  command: string[];
  source: InterpreterSource;
}

export function defaultPython(platform: NodeJS.Platform = process.platform): string {
  return platform === "win32" ? "python" : "python3";
}

/** Picks the interpreter from what is configured and what the Python extension reports. */
export function chooseInterpreter(
  setting: string[],
  pythonExtension: string[] | undefined,
  platform: NodeJS.Platform = process.platform,
): InterpreterChoice {
  if (setting.length > 0) {
    return { command: setting, source: "setting" };
  }
  if (pythonExtension && pythonExtension.length > 0 && pythonExtension[0]) {
    return { command: pythonExtension, source: "pythonExtension" };
  }
  return { command: [defaultPython(platform)], source: "default" };
}

export interface ServerProcess {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/**
 * The server's process: `<interpreter> -m msmigrate serve`, with the bundled libraries first on the path.
 * PYTHONSAFEPATH: the server starts in the workspace folder, which must not be on `sys.path` (a
 * repository's `msmigrate/` or `json.py` would run in the server).
 */
export function serverProcess(
  choice: InterpreterChoice,
  strategy: ImportStrategy,
  bundledLibs: string,
  baseEnv: NodeJS.ProcessEnv = process.env,
): ServerProcess {
  const env: NodeJS.ProcessEnv = { ...baseEnv, PYTHONUTF8: "1", PYTHONSAFEPATH: "1" };
  if (strategy === "useBundled") {
    const existing = baseEnv.PYTHONPATH;
    env.PYTHONPATH = existing ? `${bundledLibs}${path.delimiter}${existing}` : bundledLibs;
  }
  const [command, ...prefix] = choice.command;
  return { command, args: [...prefix, "-m", "msmigrate", "serve"], env };
}
