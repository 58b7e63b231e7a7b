// The "Look Up PyTorch API" page: the server's own rendering of a lookup (knowledge/lookup.py
// `render_markdown`, the `markdown` of a `msmigrate.lookup` reply), the same text a hover shows.

import type { LookupJson } from "./serverApi";

function code(name: unknown): string {
  return `\`${String(name ?? "").replace(/`/g, "'")}\``;
}

export function lookupMarkdown(r: LookupJson): string {
  if (typeof r.markdown === "string" && r.markdown) {
    return r.markdown.endsWith("\n") ? r.markdown : `${r.markdown}\n`;
  }
  // a server without `markdown` (an older msmigrate in the environment): its name and notes
  const notes = Array.isArray(r.notes) ? (r.notes as unknown[]).map((n) => `- ${String(n)}`) : [];
  return [`# ${code(r.torch_api ?? r.query)}`, "", ...notes, ""].join("\n");
}
