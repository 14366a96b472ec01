"""Trainer of wuzi's learned evaluation: feature files in, net files out.

Modules:
- ``features``: the ``.wzf`` reader (and a writer, for tests and tools).
- ``model``: the network (v1) and its losses.
- ``netfile``: the ``.wznet`` writer and reader, and a numpy reference forward pass.
- ``trainer``: the split, the training loop and the evaluation.
- ``synthetic``: made-up feature records with a learnable signal, for the tests.
"""
