// The model comparison's page in the report webview: figures per mode, the first divergence highlighted,
// the GRAPH_MODE failure linked to its line, everything from the reply escaped, and no link but ours.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import {
  compareArguments,
  compareHtml,
  compareOutcome,
  CompareReportJson,
  escapeHtml,
  OPEN_SOURCE_COMMAND,
  sci,
  sourceLink,
} from "../src/compareView";
import { ReportPanel } from "../src/reportWebview";
import * as vscode from "./vscodeMock";

const english = vscode.l10n;

function layer(name: string, status: string, maxAbs: number | null, mindsporeClass: string | null = "Dense") {
  return { name, call: 0, torch_class: "Linear", mindspore_class: mindsporeClass, status, max_abs: maxAbs, max_rel: maxAbs };
}

/** A reply's report as the server sends it (shape of CompareReport.to_json), with hostile names. */
function report(): CompareReportJson {
  const first = { ...layer('<img src=x onerror="alert(1)">', "diverge", 0.5), alone: { status: "diverge", max_abs: 0.25 } };
  return {
    name: "tiny <b>net</b>",
    status: "diverge",
    torch: "/p/t.py:Net()",
    mindspore: '/p/m.py:Net("</code><script>alert(1)</script>")',
    inputs: ["[2, 7] int64"],
    checkpoint: null,
    rtol: 0.0001,
    atol: 0.0001,
    conversion: { parameters: [1, 2, 3], dropped: [1] },
    modes: [
      {
        mode: "pynative",
        status: "diverge",
        outputs: { status: "diverge", max_abs: 0.146, max_rel: 0.25 },
        first_divergence: first,
        layers: [
          layer("fc", "match", 1.9371509552001953e-7),
          { ...layer("act", "accumulated", 3e-4), alone: { status: "match", max_abs: 1e-7 } },
          first,
          layer("", "downstream", 0.146),
        ],
        training: {
          loss: { torch: 0.4275681674480438, mindspore: 0.400407, status: "diverge", max_abs: 0.027 },
          gradients: [
            { torch: "fc.weight", mindspore: "fc.weight", status: "match", max_abs: 1e-8 },
            { torch: "x.bias&<i>", mindspore: "x.bias", status: "diverge", max_abs: 0.125 },
          ],
          updated: [{ torch: "fc.weight", mindspore: "fc.weight", status: "match", max_abs: 2e-8 }],
        },
        graph_error: null,
        error: null,
      },
      {
        mode: "graph",
        status: "graph_error",
        outputs: null,
        layers: [],
        training: null,
        graph_error: {
          message: "Only support jit_class instance, but got <class 'warnings.catch_warnings'>",
          type: "TypeError",
          file: "/p/my models/m\"s'.py",
          line: 18,
          source: "with warnings.catch_warnings():",
          rule: "MSM702",
        },
        error: null,
      },
    ],
    error: null,
  };
}

describe("compareHtml", () => {
  const html = compareHtml(report(), english);

  it("escapes every value of the reply", () => {
    assert.ok(!html.includes("<script>") && !html.includes("<img") && !html.includes("<b>net"));
    assert.ok(html.includes("Compare tiny &lt;b&gt;net&lt;/b&gt;: the models DIFFER"));
    assert.ok(html.includes("<code>/p/m.py:Net(&quot;&lt;/code&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;)</code>"));
    assert.ok(html.includes("<code>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</code>"));
    assert.ok(html.includes("<code>x.bias&amp;&lt;i&gt;</code>"));
    // the only tags are the page's own
    const tags = new Set([...html.matchAll(/<\/?([a-zA-Z0-9!]+)/g)].map((m) => m[1].toLowerCase()));
    assert.deepEqual(
      [...tags].sort(),
      ["!doctype", "a", "body", "br", "code", "h1", "h2", "h3", "head", "html", "li", "meta", "p", "section", "span", "style",
        "table", "tbody", "td", "th", "thead", "title", "tr", "ul"],
    );
  });

  it("links only to the source line (our command) and to the highlighted row", () => {
    // (an attribute's entities are decoded by the browser before the link is followed)
    const unescape = (v: string): string => v.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => unescape(m[1]));
    assert.equal(hrefs.length, 2);
    assert.equal(hrefs[0], "#first-divergence");
    const prefix = `command:${OPEN_SOURCE_COMMAND}?`;
    assert.ok(hrefs[1].startsWith(prefix));
    assert.deepEqual(JSON.parse(decodeURIComponent(hrefs[1].slice(prefix.length))), ["/p/my models/m\"s'.py", 18]);
    assert.ok(html.includes(`title="/p/my models/m&quot;s&#39;.py">m&quot;s&#39;.py:18</a> <code>with warnings.catch_warnings():</code>`));
    assert.ok(html.includes("Rule MSM702 flags this line before anything runs"));
  });

  it("shows each mode's figures and highlights the first divergence", () => {
    const summaryRows = [...html.matchAll(/<table class="summary">.*?<\/table>/gs)][0][0];
    assert.ok(
      summaryRows.includes(
        '<tr><td>PyNative</td><td><span class="badge bad">DIFFER</span></td><td>1.46e-01</td><td>2.50e-01</td>' +
          '<td><code>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</code></td><td><span class="badge bad">DIFFER</span></td></tr>',
      ),
    );
    assert.ok(summaryRows.includes('<tr><td>GRAPH_MODE</td><td><span class="badge fail">does not compile</span></td><td>-</td>'));
    const rows = [...html.matchAll(/<tr( class="first" id="first-divergence")?><td>(\d+)<\/td>/g)];
    assert.deepEqual(rows.map((r) => [r[2], Boolean(r[1])]), [["1", false], ["2", false], ["3", true], ["4", false]]);
    assert.ok(
      html.includes(
        '<span class="badge bad">DIFFER</span> <span class="alone">alone 2.50e-01</span> <span class="marker">first divergence</span></td></tr>',
      ),
    );
    // a layer whose difference comes from its input is not a divergence; those after the first are marked
    assert.ok(html.includes('<span class="badge ok">from its input</span> <span class="alone">alone 1.00e-07</span></td></tr>'));
    assert.ok(html.includes('<span class="badge bad">differs, after the first</span></td></tr>'));
    assert.ok(html.includes("<td><code>fc</code></td><td>Linear</td><td>Dense</td><td>1.94e-07</td>"));
    assert.ok(html.includes("<td><code>(model)</code></td>"));
    assert.ok(html.includes("4 layer outputs compared: 3 differ in the whole model, 0 have no MindSpore cell of that name"));
    assert.ok(html.includes("Loss: torch 0.427568, MindSpore 0.400407<br>2 gradients, max abs error 1.25e-01<br>"));
    assert.ok(html.includes("Updated weights: max abs error 2.00e-08"));
    assert.ok(html.includes("conversion: 3 parameters, 1 torch entries dropped"));
  });

  it("notes a tensor MindSpore returns where torch returns None, without calling it a divergence", () => {
    const withNone = report();
    const pynative = withNone.modes![0];
    pynative.outputs = { status: "match", max_abs: 0, max_rel: 0, extra: [{ index: 2, shape: [1, 6] }] };
    pynative.layers = [{ ...layer("attn<i>", "match", 0), extra: [{ index: 2, shape: [1, 6, 4, 4] }] }];
    const page = compareHtml(withNone, english);
    assert.ok(page.includes('<p class="note">The model&#39;s output 2 is a tensor where torch&#39;s is None (not compared)</p>'));
    assert.ok(
      page.includes(
        "1 layer outputs hold a tensor where torch&#39;s hold None (not compared, not a divergence: the migrated code " +
          "computes a result the torch code skips): attn&lt;i&gt; (2, [1, 6, 4, 4])</p>",
      ),
    );
    assert.ok(!compareHtml(report(), english).includes('class="note"'));
  });

  it("says why a comparison did not complete", () => {
    const failed = { ...report(), status: "error", modes: [], error: { key: "weights.error.timeout", message: "the torch worker <gave> no answer" } };
    const page = compareHtml(failed, english);
    assert.ok(page.includes("the comparison did not complete"));
    assert.ok(page.includes('<p class="error">the torch worker &lt;gave&gt; no answer</p>'));
    assert.ok(!page.includes('class="summary"'));
  });
});

describe("compare replies", () => {
  it("sorts every reply kind", () => {
    assert.deepEqual(compareOutcome({ error: "Nothing to compare" }), { kind: "error", message: "Nothing to compare" });
    assert.deepEqual(compareOutcome({ cancelled: true, config: "/p/pyproject.toml" }), { kind: "cancelled" });
    assert.deepEqual(
      compareOutcome({ cancelled: false, config: "/p/pyproject.toml", choices: [{ name: "a", torch: "t", mindspore: "m" }, 3] }),
      { kind: "choose", config: "/p/pyproject.toml", choices: [{ name: "a", torch: "t", mindspore: "m" }] },
    );
    const r = report();
    assert.deepEqual(compareOutcome({ cancelled: false, config: "c", report: r, summary: "s", markdownReport: "/p/x.md", shown: false }), {
      kind: "report",
      report: r,
      summary: "s",
      markdown: "/p/x.md",
    });
    assert.equal(compareOutcome(null).kind, "error");
    assert.equal(compareOutcome({ cancelled: false }).kind, "error");
  });

  it("takes the name and configuration a code lens passes", () => {
    assert.deepEqual(compareArguments({ name: "resnet50", config: "/p/pyproject.toml" }), { name: "resnet50", config: "/p/pyproject.toml" });
    assert.deepEqual(compareArguments([{ name: "a", uri: "file:///p" }]), { name: "a", config: "file:///p" });
    assert.deepEqual(compareArguments(undefined), {});
    assert.deepEqual(compareArguments({ name: 3, config: "" }), { name: undefined, config: undefined });
  });
});

describe("helpers", () => {
  it("writes numbers as the server's reports do", () => {
    assert.deepEqual(
      [1.74e-4, 0, 1234.5, 0.146, null, undefined, Infinity].map((v) => sci(v)),
      ["1.74e-04", "0.00e+00", "1.23e+03", "1.46e-01", "-", "-", "inf"],
    );
  });

  it("escapes text and attributes", () => {
    assert.equal(escapeHtml(`<a href="x">'&'</a>`), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    assert.equal(
      sourceLink('/p/"a".py', 3, "<x>"),
      `<a href="command:${OPEN_SOURCE_COMMAND}?%5B%22%2Fp%2F%5C%22a%5C%22.py%22%2C3%5D" title="/p/&quot;a&quot;.py">&lt;x&gt;</a>`,
    );
  });
});

describe("ReportPanel", () => {
  it("allows command links only on the pages that name them", () => {
    const panel = new ReportPanel();
    panel.showHtml("<p>compare</p>", false, [OPEN_SOURCE_COMMAND]);
    const created = vscode.window.panels[vscode.window.panels.length - 1];
    assert.equal(created.webview.options.enableScripts, false);
    assert.deepEqual(created.webview.options.enableCommandUris, [OPEN_SOURCE_COMMAND]);
    assert.ok(created.webview.html.startsWith('<head><meta http-equiv="Content-Security-Policy"'));
    assert.ok(created.webview.html.includes("script-src 'none'"));
    panel.showHtml("<p>scan report</p>"); // the server's HTML report: no command links
    assert.equal(created.webview.options.enableCommandUris, false);
    assert.equal(created.revealed, 1);
    panel.dispose();
  });
});
