"""Build-time generators of ``mapping_data/`` (``msmigrate data build|inventory|derive``).

``importer/``: the official mapping tables and difference pages → ``mapping-<v>.json``; ``inventory/``: the
installed torch and MindSpore → ``{torch,mindspore}_inventory.json``; ``derive*.py``: the tables and
inventories → ``derived-<v>.json``. What they write, ``knowledge/`` reads (``knowledge/derived.py``,
``inventory_index.py``, ``base.py``). The language server, ``scan``, ``fix`` and ``check`` never import this
package (``tests/core/test_layers.py``).
"""
