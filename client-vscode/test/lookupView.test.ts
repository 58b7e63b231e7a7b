import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { mappingCategoryLabel } from "../src/labels";
import { lookupMarkdown } from "../src/lookupView";
import { CATEGORY_ORDER } from "../src/reportModel";
import { FINDING_CATEGORIES } from "../src/protocol";
import { scanFileReport, scanProjectReport } from "../src/serverApi";

describe("lookupMarkdown", () => {
  it("shows the server's rendering of the lookup", () => {
    const markdown = "**torch.nn.Conv2d → mindspore.mint.nn.Conv2d (MindSpore 2.6)**\n\nCategory: Consistent";
    const md = lookupMarkdown({ status: "mapped", torch_api: "torch.nn.Conv2d", markdown });
    assert.equal(md, `${markdown}\n`);
  });

  it("falls back to the name and notes from a server that sends no markdown", () => {
    const md = lookupMarkdown({
      status: "missing",
      torch_api: "torch.cuda.amp.`GradScaler`",
      notes: ["No counterpart in MindSpore 2.6."],
    });
    assert.equal(md, "# `torch.cuda.amp.'GradScaler'`\n\n- No counterpart in MindSpore 2.6.\n");
  });
});

describe("labels and lists from the server", () => {
  it("names mapping categories as the server does, in the display language", () => {
    assert.equal(mappingCategoryLabel("no_verbose", "en"), "MindSpore has no verbose parameter");
    assert.equal(mappingCategoryLabel("diff_page", "zh-cn"), "差异见对比页面");
    assert.equal(mappingCategoryLabel("new_kind", "en"), "new_kind");
  });

  it("orders every finding category the server has", () => {
    assert.deepEqual([...CATEGORY_ORDER].sort(), [...FINDING_CATEGORIES].sort());
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
