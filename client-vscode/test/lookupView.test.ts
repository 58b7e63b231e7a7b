import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { lookupMarkdown } from "../src/lookupView";
import { scanFileReport, scanProjectReport } from "../src/serverApi";

describe("lookupMarkdown", () => {
  it("renders a mapped API with its parameter differences, notes and links", () => {
    const md = lookupMarkdown({
      query: "nn.Conv2d",
      status: "mapped",
      mindspore_version: "2.6",
      torch_api: "torch.nn.Conv2d",
      mindspore_api: "mindspore.nn.Conv2d",
      category: "diff_page",
      param_renames: { padding_mode: "pad_mode" },
      input_renames: {},
      unsupported_params: [],
      mindspore_only_params: ["weight_init"],
      default_differences: [{ param: "bias", torch_default: "True", mindspore_default: "False" }],
      alternatives: [],
      other_versions: { "2.3": "mindspore.nn.Conv2d" },
      notes: ["Padding | modes differ"],
      urls: { mindspore_en: "https://www.mindspore.cn/x.html", bad: "javascript:alert(1)" },
      suggestions: [],
      advice: null,
    });
    assert.equal(
      md,
      [
        "# `torch.nn.Conv2d`",
        "",
        "**MindSpore API:** `mindspore.nn.Conv2d`",
        "",
        "**Category:** Differences described on a comparison page",
        "",
        "**Mapping table:** MindSpore 2.6",
        "",
        "## Renamed parameters",
        "",
        "| PyTorch | MindSpore |",
        "| --- | --- |",
        "| `padding_mode` | `pad_mode` |",
        "",
        "## Different defaults",
        "",
        "| Parameter | PyTorch | MindSpore |",
        "| --- | --- | --- |",
        "| `bias` | `True` | `False` |",
        "",
        "## Only in MindSpore",
        "",
        "`weight_init`",
        "",
        "## Other MindSpore versions",
        "",
        "- MindSpore 2.3: `mindspore.nn.Conv2d`",
        "",
        "## Notes",
        "",
        "- Padding | modes differ",
        "",
        "## Links",
        "",
        "- [MindSpore documentation (English)](https://www.mindspore.cn/x.html)",
        "",
      ].join("\n"),
    );
  });

  it("renders an API without counterpart with the server's advice", () => {
    const md = lookupMarkdown({
      status: "missing",
      torch_api: "torch.cuda.amp.GradScaler",
      mindspore_api: null,
      category: null,
      advice: "Use `mindspore.amp.DynamicLossScaler`.",
    });
    assert.equal(md, "# `torch.cuda.amp.GradScaler`\n\n**MindSpore API:** none\n\nUse `mindspore.amp.DynamicLossScaler`.\n");
  });
});

describe("command results", () => {
  it("takes the report out of a scanProject result", () => {
    const report = { files: [], summary: {} };
    assert.equal(scanProjectReport({ cancelled: false, report, htmlReport: "/r.html" }), report);
    assert.equal(scanProjectReport({ cancelled: true }), undefined);
    assert.equal(scanProjectReport({ error: "no folder" }), undefined);
  });
  it("turns a scanFile result into a one-file report", () => {
    assert.deepEqual(scanFileReport({ path: "/p/a.py", findings: [], error: null }), {
      files: [{ path: "/p/a.py", error: null, findings: [] }],
    });
    assert.equal(scanFileReport({ error: "unreadable" }), undefined);
  });
});
