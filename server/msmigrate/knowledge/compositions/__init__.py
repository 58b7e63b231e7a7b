"""Compositions for torch APIs MindSpore lacks (the missing-API policy's "package equivalent logic from
existing APIs"): the catalogue (``catalogue.py``), the helpers' sources (``templates/*.py.txt``,
classes under ``templates/classes/``), the text of the project's helper module (``helper_module.py``) and
which compositions passed their check (``verified.py``).
"""
