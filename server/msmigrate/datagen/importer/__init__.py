"""Importer: official PyTorch→MindSpore mapping tables and difference pages → ``mapping_data/*.json``.

Modules: ``markdown`` (tables, links, code blocks), ``mapping_table`` (rows of the mapping table),
``diff_page`` (comparison tables of difference pages), ``signatures`` (signature code blocks),
``classify`` (category of a description), ``align`` (signature alignment), ``facts`` (parameter facts of
a row), ``urls`` and ``names`` (URL and name handling), ``build`` (assembly and writing).
"""

from msmigrate.datagen.importer.build import RELEASES, SourceError, build_all

__all__ = ["RELEASES", "SourceError", "build_all"]
