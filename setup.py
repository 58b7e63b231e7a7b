"""Build hook: the wheel carries the knowledge base. Everything else is in pyproject.toml.

``build_py`` copies ``mapping_data/`` into the built package as ``msmigrate/_data`` (where
``msmigrate.paths.data_dir()`` looks in an installed copy) with ``msmigrate.data_files.copy_into_package``,
the step the VS Code bundle uses too. The sdist carries ``mapping_data/`` (MANIFEST.in), so a wheel built
from it gets the same files. An editable install reads ``mapping_data/`` of the checkout and copies nothing.
"""

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "server"))
from msmigrate.data_files import BUNDLED_FOLDER, KnowledgeBaseError, copy_into_package  # noqa: E402

sys.path.pop(0)


class BuildWithKnowledgeBase(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        try:
            copy_into_package(ROOT / "mapping_data", Path(self.build_lib) / "msmigrate")
        except KnowledgeBaseError as exc:
            raise SystemExit(f"msmigrate build: the knowledge base cannot be packaged: {exc}") from None

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        bundled = Path(self.build_lib) / "msmigrate" / BUNDLED_FOLDER
        extra = [] if self.editable_mode else [str(p) for p in sorted(bundled.glob("*.json"))]
        return [*super().get_outputs(include_bytecode), *extra]


setup(cmdclass={"build_py": BuildWithKnowledgeBase})
