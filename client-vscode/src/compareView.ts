// "Compare Model with Its PyTorch Original": the server's comparison (a `msmigrate.compareModels` reply,
// CompareReport.to_json of server/msmigrate/compare/report.py) as the report webview's page. No VS Code
// types here, so the rendering is unit-tested: every value from the reply is HTML-escaped; the only links are
// command URIs of OPEN_SOURCE_COMMAND (the webview enables no other), which open a file at a line.

/** Translates UI strings: `vscode.l10n` in the extension (`{0}`, `{1}` … are replaced by `args`). */
export interface Localizer {
  t(message: string, ...args: (string | number | boolean)[]): string;
}

/** Opens a file at a 1-based line: the one command the compare page may run from its links. */
export const OPEN_SOURCE_COMMAND = "msmigrate.openSourceLine";

/** A position where MindSpore returns a tensor and torch returns None (1-based; not compared). */
export interface CompareExtra {
  index: number;
  shape: number[];
}

export interface CompareNumbers {
  status?: string | null;
  max_abs?: number | null;
  max_rel?: number | null;
  detail?: string | null;
  extra?: CompareExtra[] | null;
}

export interface CompareLayer extends CompareNumbers {
  name: string;
  call: number;
  torch_class: string;
  mindspore_class?: string | null;
  /** the layer run alone on torch's inputs of that call (only for layers that differ in the whole model) */
  alone?: { status: string; max_abs?: number | null; why?: string; position?: string; type?: string; detail?: string } | null;
}

export interface CompareParameterRow extends CompareNumbers {
  torch?: string | null;
  mindspore?: string | null;
}

export interface CompareTraining {
  loss: CompareNumbers & { torch: number; mindspore: number };
  gradients: CompareParameterRow[];
  updated: CompareParameterRow[];
}

export interface CompareGraphError {
  message: string;
  type?: string;
  file?: string | null;
  line?: number | null;
  source?: string | null;
  rule?: string | null;
}

export interface CompareMode {
  mode: string;
  status: string;
  outputs?: CompareNumbers | null;
  first_divergence?: CompareLayer | null;
  layers?: CompareLayer[];
  training?: CompareTraining | null;
  graph_error?: CompareGraphError | null;
  error?: { key: string; message: string } | null;
}

export interface CompareReportJson {
  name: string;
  status: string;
  torch: string;
  mindspore: string;
  inputs?: string[];
  checkpoint?: string | null;
  rtol?: number;
  atol?: number;
  conversion?: { parameters?: unknown[]; dropped?: unknown[] } | null;
  modes?: CompareMode[];
  error?: { key: string; message: string } | null;
}

/** What the client makes of a `msmigrate.compareModels` reply. */
export type CompareOutcome =
  | { kind: "error"; message: string }
  | { kind: "cancelled" }
  | { kind: "choose"; config: string; choices: { name: string; torch: string; mindspore: string }[] }
  | { kind: "report"; report: CompareReportJson; summary: string; markdown?: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** Sorts a reply (or anything else the server sent) into what the client does next. */
export function compareOutcome(reply: unknown): CompareOutcome {
  if (!isObject(reply)) {
    return { kind: "error", message: String(reply) };
  }
  if (typeof reply.error === "string") {
    return { kind: "error", message: reply.error };
  }
  if (reply.cancelled === true) {
    return { kind: "cancelled" };
  }
  if (Array.isArray(reply.choices)) {
    const choices = reply.choices
      .filter(isObject)
      .map((c) => ({ name: String(c.name ?? ""), torch: String(c.torch ?? ""), mindspore: String(c.mindspore ?? "") }));
    return { kind: "choose", config: String(reply.config ?? ""), choices };
  }
  if (isObject(reply.report) && typeof reply.report.name === "string") {
    return {
      kind: "report",
      report: reply.report as unknown as CompareReportJson,
      summary: typeof reply.summary === "string" ? reply.summary : "",
      markdown: typeof reply.markdownReport === "string" ? reply.markdownReport : undefined,
    };
  }
  return { kind: "error", message: JSON.stringify(reply) };
}

/** The `{name, config}` a code lens passes (other values are ignored). */
export function compareArguments(arg: unknown): { name?: string; config?: string } {
  const source = Array.isArray(arg) ? arg[0] : arg;
  if (!isObject(source)) {
    return {};
  }
  const pick = (value: unknown): string | undefined => (typeof value === "string" && value ? value : undefined);
  return { name: pick(source.name), config: pick(source.config) ?? pick(source.uri) };
}

export function escapeHtml(value: unknown): string {
  return String(value ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** A number as the server's text and Markdown reports write it (Python's `.2e`: 1.74e-04). */
export function sci(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) {
    return "-";
  }
  if (!Number.isFinite(value)) {
    return value > 0 ? "inf" : "-inf";
  }
  const [mantissa, exponent] = value.toExponential(2).split("e");
  const power = Number(exponent);
  return `${mantissa}e${power < 0 ? "-" : "+"}${String(Math.abs(power)).padStart(2, "0")}`;
}

/** Python's `.6g` for the losses. */
function general(value: number): string {
  return Number(value.toPrecision(6)).toString();
}

const MODE_LABEL: Record<string, string> = { pynative: "PyNative", graph: "GRAPH_MODE" };

function modeLabel(mode: string): string {
  return MODE_LABEL[mode] ?? mode;
}

function statusLabel(status: string | null | undefined, l10n: Localizer): string {
  switch (status) {
    case "match":
      return l10n.t("match");
    case "diverge":
      return l10n.t("DIFFER");
    case "missing":
      return l10n.t("missing in MindSpore");
    case "accumulated":
      return l10n.t("from its input");
    case "unchecked":
      return l10n.t("differs, not checked alone");
    case "downstream":
      return l10n.t("differs, after the first");
    case "graph_error":
      return l10n.t("does not compile");
    case "error":
      return l10n.t("error");
    case null:
    case undefined:
      return "-";
    default:
      return status;
  }
}

function badge(status: string | null | undefined, l10n: Localizer): string {
  const kind =
    status === "match" || status === "accumulated"
      ? "ok"
      : status === "diverge" || status === "missing" || status === "unchecked" || status === "downstream"
        ? "bad"
        : status
          ? "fail"
          : "none";
  return `<span class="badge ${kind}">${escapeHtml(statusLabel(status, l10n))}</span>`;
}

/** A layer's error when run alone on torch's inputs (layers that differ in the whole model), else nothing. */
function aloneNote(layer: CompareLayer, l10n: Localizer): string {
  const value = layer.alone?.max_abs;
  return value === undefined || value === null ? "" : ` <span class="alone">${escapeHtml(l10n.t("alone {0}", sci(value)))}</span>`;
}

function layerName(layer: CompareLayer): string {
  const name = layer.name || "(model)";
  return layer.call ? `${name} #${layer.call + 1}` : name;
}

/** A command link opening `file` at `line` (the arguments JSON-encoded in the URI, then escaped). */
export function sourceLink(file: string, line: number | null | undefined, label: string): string {
  const args = encodeURIComponent(JSON.stringify([file, line ?? 1]));
  return `<a href="${escapeHtml(`command:${OPEN_SOURCE_COMMAND}?${args}`)}" title="${escapeHtml(file)}">${escapeHtml(label)}</a>`;
}

function baseName(file: string): string {
  const parts = file.split(/[\\/]/);
  return parts[parts.length - 1];
}

function summaryRow(mode: CompareMode, l10n: Localizer): string {
  const cells: string[] = [escapeHtml(modeLabel(mode.mode))];
  if (mode.error || mode.graph_error) {
    cells.push(badge(mode.error ? "error" : "graph_error", l10n), "-", "-", "-", "-");
  } else {
    const out = mode.outputs ?? {};
    const first = mode.first_divergence;
    cells.push(
      badge(out.status, l10n),
      escapeHtml(sci(out.max_abs)),
      escapeHtml(sci(out.max_rel)),
      first ? `<code>${escapeHtml(layerName(first))}</code>` : "-",
      mode.training ? badge(trainingStatus(mode.training), l10n) : "-",
    );
  }
  return `<tr>${cells.map((c) => `<td>${c}</td>`).join("")}</tr>`;
}

function trainingStatus(training: CompareTraining): string {
  const rows = [training.loss, ...training.gradients, ...training.updated];
  return rows.every((r) => r.status === "match") ? "match" : "diverge";
}

function maxAbs(rows: CompareParameterRow[]): number | null {
  return rows.length ? Math.max(...rows.map((r) => r.max_abs ?? 0)) : null;
}

function trainingSection(training: CompareTraining, l10n: Localizer): string {
  const loss = training.loss;
  const wrong = training.gradients.filter((g) => g.status === "diverge" || g.status === "missing");
  const items = wrong.map(
    (g) =>
      `<li><code>${escapeHtml(g.torch || g.mindspore || "")}</code>: ${escapeHtml(l10n.t("max abs error {0}", sci(g.max_abs)))} ${badge(g.status, l10n)}</li>`,
  );
  return [
    `<h3>${escapeHtml(l10n.t("Training step"))} ${badge(trainingStatus(training), l10n)}</h3>`,
    "<p>",
    escapeHtml(l10n.t("Loss: torch {0}, MindSpore {1}", general(loss.torch), general(loss.mindspore))),
    "<br>",
    escapeHtml(l10n.t("{0} gradients, max abs error {1}", training.gradients.length, sci(maxAbs(training.gradients)))),
    "<br>",
    escapeHtml(l10n.t("Updated weights: max abs error {0}", sci(maxAbs(training.updated)))),
    "</p>",
    items.length ? `<p>${escapeHtml(l10n.t("Gradients that differ:"))}</p><ul>${items.join("")}</ul>` : "",
  ].join("");
}

function layerTable(mode: CompareMode, l10n: Localizer): string {
  const layers = mode.layers ?? [];
  const first = mode.first_divergence;
  const firstIndex = first ? layers.findIndex((l) => l.name === first.name && l.call === first.call) : -1;
  const diverging = layers.filter((l) => l.status !== "match" && l.status !== "missing").length;
  const missing = layers.filter((l) => l.status === "missing").length;
  const head = ["#", l10n.t("layer"), "torch", "MindSpore", l10n.t("max abs error"), l10n.t("max rel error"), l10n.t("status")];
  const rows = layers.map((layer, index) => {
    const isFirst = index === firstIndex;
    const marker = isFirst ? ` <span class="marker">${escapeHtml(l10n.t("first divergence"))}</span>` : "";
    const cells = [
      String(index + 1),
      `<code>${escapeHtml(layerName(layer))}</code>`,
      escapeHtml(layer.torch_class),
      escapeHtml(layer.mindspore_class ?? "-"),
      escapeHtml(sci(layer.max_abs)),
      escapeHtml(sci(layer.max_rel)),
      badge(layer.status, l10n) + aloneNote(layer, l10n) + marker,
    ];
    const attrs = isFirst ? ' class="first" id="first-divergence"' : "";
    return `<tr${attrs}>${cells.map((c) => `<td>${c}</td>`).join("")}</tr>`;
  });
  const firstLine = first
    ? `<p class="first-line">${escapeHtml(
        l10n.t(
          "First layer that differs by its own error: {0} (call {1}; torch {2}, MindSpore {3}), max abs error {4} in the whole model, {5} alone on torch's input",
          first.name || "(model)",
          first.call + 1,
          first.torch_class,
          first.mindspore_class ?? "-",
          sci(first.max_abs),
          sci(first.alone?.max_abs),
        ),
      )} <a href="#first-divergence">${escapeHtml(l10n.t("Show in the table"))}</a></p>`
    : "";
  const extra = layers.filter((l) => l.extra && l.extra.length);
  const items = extra
    .slice(0, 5)
    .flatMap((l) => (l.extra ?? []).map((e) => `${layerName(l)} (${e.index}, [${e.shape.join(", ")}])`));
  const extraLine = extra.length
    ? `<p class="note">${escapeHtml(
        l10n.t(
          "{0} layer outputs hold a tensor where torch's hold None (not compared, not a divergence: the migrated code computes a result the torch code skips): {1}",
          extra.length,
          items.join("; ") + (extra.length > 5 ? ", …" : ""),
        ),
      )}</p>`
    : "";
  return [
    `<h3>${escapeHtml(l10n.t("Layers"))}</h3>`,
    `<p>${escapeHtml(l10n.t("{0} layer outputs compared: {1} differ in the whole model, {2} have no MindSpore cell of that name", layers.length, diverging, missing))}</p>`,
    extraLine,
    firstLine,
    `<table class="layers"><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr></thead>`,
    `<tbody>${rows.join("")}</tbody></table>`,
  ].join("");
}

function modeSection(mode: CompareMode, l10n: Localizer): string {
  const label = modeLabel(mode.mode);
  const parts = [`<section class="mode"><h2>${escapeHtml(label)} ${badge(mode.status, l10n)}</h2>`];
  if (mode.error) {
    parts.push(`<p class="error">${escapeHtml(mode.error.message)}</p>`);
  } else if (mode.graph_error) {
    const g = mode.graph_error;
    parts.push(`<p class="error">${escapeHtml(l10n.t("The migrated model does not compile in {0}:", label))} ${escapeHtml(g.message)}</p>`);
    if (g.file) {
      const where = sourceLink(g.file, g.line, g.line ? `${baseName(g.file)}:${g.line}` : baseName(g.file));
      const source = g.source ? ` <code>${escapeHtml(g.source)}</code>` : "";
      parts.push(`<p>${escapeHtml(l10n.t("At"))} ${where}${source}</p>`);
    }
    if (g.rule) {
      parts.push(`<p>${escapeHtml(l10n.t("Rule {0} flags this line before anything runs (msmigrate scan, the editor).", g.rule))}</p>`);
    }
  } else {
    const out = mode.outputs ?? {};
    parts.push(
      `<p>${escapeHtml(l10n.t("Outputs"))} ${badge(out.status, l10n)} ${escapeHtml(
        l10n.t("max abs error {0}, max rel error {1}", sci(out.max_abs), sci(out.max_rel)),
      )}</p>`,
    );
    if (out.detail) {
      parts.push(`<p>${escapeHtml(out.detail)}</p>`);
    }
    if (out.extra && out.extra.length) {
      const positions = out.extra.map((e) => String(e.index)).join(", ");
      parts.push(`<p class="note">${escapeHtml(l10n.t("The model's output {0} is a tensor where torch's is None (not compared)", positions))}</p>`);
    }
    if (mode.training) {
      parts.push(trainingSection(mode.training, l10n));
    }
    if (mode.layers && mode.layers.length) {
      parts.push(layerTable(mode, l10n));
    }
  }
  parts.push("</section>");
  return parts.join("");
}

const STYLE = `
body { font-family: var(--vscode-font-family, sans-serif); font-size: var(--vscode-font-size, 13px); padding: 0 1em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid var(--vscode-panel-border, #8884); padding: 2px 8px; text-align: left; }
.badge { border-radius: 3px; padding: 0 5px; font-weight: 600; }
.badge.ok { color: var(--vscode-testing-iconPassed, #2a7); }
.badge.bad, .badge.fail { color: var(--vscode-errorForeground, #d33); }
tr.first { background: var(--vscode-inputValidation-errorBackground, #f002); font-weight: 600; }
.marker { font-style: italic; }
.alone { opacity: 0.75; }
.error { color: var(--vscode-errorForeground, #d33); }
`;

/** The whole page (its CSP is added by the report panel). */
export function compareHtml(report: CompareReportJson, l10n: Localizer): string {
  const modes = report.modes ?? [];
  const verdict =
    report.status === "match"
      ? l10n.t("the models match")
      : report.status === "diverge"
        ? l10n.t("the models DIFFER")
        : l10n.t("the comparison did not complete");
  const weights = report.checkpoint
    ? l10n.t("weights: {0}, converted", report.checkpoint)
    : l10n.t("weights: the torch model's initial ones, converted");
  const setup = [
    weights,
    l10n.t("inputs: {0}", (report.inputs ?? []).join("; ")),
    l10n.t("eval mode; rtol {0}, atol {1}", String(report.rtol ?? "-"), String(report.atol ?? "-")),
  ].join("; ");
  const conversion = report.conversion
    ? `<li>${escapeHtml(
        l10n.t(
          "conversion: {0} parameters, {1} torch entries dropped",
          report.conversion.parameters?.length ?? 0,
          report.conversion.dropped?.length ?? 0,
        ),
      )}</li>`
    : "";
  const summary = modes.length
    ? [
        "<table class=\"summary\"><thead><tr>",
        [l10n.t("mode"), l10n.t("outputs"), l10n.t("max abs error"), l10n.t("max rel error"), l10n.t("first layer that differs"), l10n.t("training step")]
          .map((h) => `<th>${escapeHtml(h)}</th>`)
          .join(""),
        "</tr></thead><tbody>",
        modes.map((m) => summaryRow(m, l10n)).join(""),
        "</tbody></table>",
      ].join("")
    : "";
  return [
    "<!DOCTYPE html>",
    `<html><head><meta charset="utf-8"><title>${escapeHtml(l10n.t("Compare {0}", report.name))}</title><style>${STYLE}</style></head><body>`,
    `<h1>${escapeHtml(l10n.t("Compare {0}: {1}", report.name, verdict))} ${badge(report.status, l10n)}</h1>`,
    "<ul>",
    `<li>${escapeHtml(l10n.t("torch model:"))} <code>${escapeHtml(report.torch)}</code></li>`,
    `<li>${escapeHtml(l10n.t("migrated model:"))} <code>${escapeHtml(report.mindspore)}</code></li>`,
    `<li>${escapeHtml(setup)}</li>`,
    conversion,
    "</ul>",
    report.error ? `<p class="error">${escapeHtml(report.error.message)}</p>` : "",
    summary,
    modes.map((m) => modeSection(m, l10n)).join(""),
    "</body></html>",
  ].join("\n");
}
