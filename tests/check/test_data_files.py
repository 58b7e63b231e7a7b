"""Generated check data: input_specs.json is reproducible; the verified tables are complete and explained."""

import json

import pytest

from msmigrate.check.request import is_op_like
from msmigrate.check.spec import render_specs_json, specs_path
from msmigrate.check.spec_table import build_table
from msmigrate.i18n import catalogue
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.knowledge.check_result import Reason
from msmigrate.knowledge.verified import verified_path


def test_input_specs_json_is_generated_from_the_table():
    assert specs_path().read_text(encoding="utf-8") == render_specs_json(build_table())


def test_every_note_and_reason_has_a_bilingual_message():
    messages = catalogue()
    notes = {spec.note for spec in build_table().values() if spec.note}
    assert sorted(n for n in notes if f"check.note.{n}" not in messages) == []
    assert sorted(r.value for r in Reason if f"check.reason.{r.value}" not in messages) == []


def test_skips_in_the_table_name_a_reason():
    for api, spec in build_table().items():
        if spec.skip:
            assert spec.skip in {r.value for r in Reason}, api


@pytest.mark.parametrize("version", ["2.6", "2.4"])
def test_verified_table_covers_the_mapping_table(version):
    data = json.loads(verified_path(version, "CPU").read_text(encoding="utf-8"))
    kb = get_knowledge_base(version)
    rows = {row.torch_api: row for row in reversed(kb.rows())}  # first row wins, as in the checks
    # Regenerate with `msmigrate check --all` after the mapping tables change; small drift is tolerated
    # so that a table rebuild does not break the suite before the (slow) re-verification.
    same = [
        api
        for api, e in data["results"].items()
        if api in rows and rows[api].mindspore_api == e["mindspore_api"]
    ]
    assert len(same) >= 0.95 * len(rows)
    assert (data["device"], data["mapping_table"]) == ("CPU", version)
    assert data["torch_version"].startswith("2.") and data["mindspore_version"].startswith("2.")
    counts = {s: sum(1 for e in data["results"].values() if e["status"] == s) for s in data["counts"]}
    assert counts == data["counts"]
    for api, entry in data["results"].items():
        if entry["status"] != "pass":
            assert entry.get("reason") in {r.value for r in Reason}, api
        else:
            # a pass without errors compared shapes and dtypes only: uninitialized or random values
            shapes_only = entry.get("note") in ("uninitialized_values", "random_values")
            assert entry.get("max_abs_error") is not None or shapes_only, api
    op_rows = [e for api, e in data["results"].items() if is_op_like(api)]
    assert sum(e["status"] == "pass" for e in op_rows) / len(op_rows) > 0.5
