"""Converting torch checkpoints into MindSpore checkpoints (``msmigrate convert-weights``).

The core (``names``, ``convert``, ``report``) imports neither torch nor MindSpore; the frameworks and
the user's model run in worker processes (``worker*.py``, started through ``session``).
"""
