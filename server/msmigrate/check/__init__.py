"""Operator-equivalence checking: run a torch API and its mapped MindSpore API on the same inputs.

* ``spec`` / ``spec_table`` – how to call an API (``mapping_data/input_specs.json`` + generic rules);
* ``request`` – a JSON request from a mapping row, a spec, parameter renames and literal call-site values;
* ``runner`` – the worker subprocess (timeout, memory cap, restart after a crash), batch mode;
* ``worker`` / ``worker_compare`` – the only modules that import torch, MindSpore and numpy;
* ``service`` – checks of APIs and whole tables.

The stored outcomes are the knowledge layer's: ``knowledge/check_result.py`` (one outcome),
``knowledge/check_render.py`` (its bilingual text), ``knowledge/verified.py``
(``verified-<v>-<device>.json``).
"""
