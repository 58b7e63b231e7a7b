"""Only the worker imports torch, MindSpore and numpy; the core check modules and the LSP feature do not."""

import subprocess
import sys


def test_core_check_modules_do_not_import_frameworks():
    code = (
        "import sys\n"
        "import msmigrate.check.spec, msmigrate.check.request, msmigrate.check.runner\n"
        "import msmigrate.knowledge.check_result\n"
        "import msmigrate.knowledge.verified, msmigrate.check.service, msmigrate.knowledge.check_render\n"
        "import msmigrate.check.call_site, msmigrate.check.spec_table, msmigrate.cli.check_cmd\n"
        "import msmigrate.lsp.check_feature\n"
        "from msmigrate.knowledge.verified import verified_status\n"
        "verified_status('torch.abs', '2.6')\n"
        "bad = [m for m in ('torch', 'mindspore', 'numpy') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
