// Optional integration with the Python extension (ms-python.python): its active environment.

import * as vscode from "vscode";
import { PVSC_EXTENSION_ID, PythonExtension } from "@vscode/python-extension";

export function pythonExtensionInstalled(): boolean {
  return vscode.extensions.getExtension(PVSC_EXTENSION_ID) !== undefined;
}

async function api(): Promise<PythonExtension | undefined> {
  if (!pythonExtensionInstalled()) {
    return undefined;
  }
  try {
    return await PythonExtension.api();
  } catch {
    return undefined;
  }
}

/** The active environment's interpreter as a command (`[path]`), or undefined without the extension. */
export async function activeEnvironmentCommand(resource?: vscode.Uri): Promise<string[] | undefined> {
  const python = await api();
  if (!python) {
    return undefined;
  }
  try {
    const envPath = python.environments.getActiveEnvironmentPath(resource);
    const resolved = await python.environments.resolveEnvironment(envPath);
    const exe = resolved?.executable.uri?.fsPath;
    return exe ? [exe] : undefined;
  } catch {
    return undefined;
  }
}

export async function onActiveEnvironmentChanged(listener: () => void): Promise<vscode.Disposable | undefined> {
  const python = await api();
  return python?.environments.onDidChangeActiveEnvironmentPath(() => listener());
}
