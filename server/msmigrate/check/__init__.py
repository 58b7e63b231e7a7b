"""Operator-equivalence checking: run a torch API and its mapped MindSpore API on the same inputs.

The core modules here (spec, request, runner, result, verified) never import torch or mindspore;
only :mod:`msmigrate.check.worker`, run as a separate process, does.
"""
