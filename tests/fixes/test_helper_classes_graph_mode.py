"""The class helpers of ``ms_compat.py`` compile in GRAPH_MODE also when the migrated code subclasses them
(whisper's ``class Conv1d(nn.Conv1d)`` becomes a subclass of ``ms_compat.Conv1d``): GRAPH_MODE resolves
``super()`` inside the helper, called on the subclass, to the helper itself and recursed until "Exceed
function call depth limit 1000"; the helpers name their MindSpore base instead."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from run_support import needs_frameworks

from msmigrate.knowledge.compositions.helper_module import module_text

SUBCLASSES = '''

class Conv1dSub(Conv1d):
    def construct(self, x):
        return super().construct(x)


class Conv2dSub(Conv2d):
    def construct(self, x):
        return super().construct(x)
'''

RUN = '''
import sys
import numpy as np
import mindspore
sys.path.insert(0, sys.argv[1])
mindspore.set_context(mode=mindspore.GRAPH_MODE)
import ms_compat as m
x1 = mindspore.Tensor(np.ones((1, 2, 5), np.float32))
x2 = mindspore.Tensor(np.ones((1, 2, 5, 5), np.float32))
for net, x in ((m.Conv1dSub(2, 3, 3, padding=1), x1), (m.Conv1dSub(2, 3, 3, padding="same",
               padding_mode="reflect"), x1), (m.Conv2dSub(2, 3, 3, padding=1), x2)):
    print(tuple(net(x).shape))
'''


@needs_frameworks
def test_subclassed_conv_helpers_compile_in_graph_mode(tmp_path: Path) -> None:
    (tmp_path / "ms_compat.py").write_text(module_text(["Conv1d", "Conv2d"]) + SUBCLASSES, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", RUN, str(tmp_path)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["(1,", "3,", "5)", "(1,", "3,", "5)", "(1,", "3,", "5,", "5)"]
