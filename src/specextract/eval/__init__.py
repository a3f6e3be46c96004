"""Eval: gold claims and predictions -> accuracy.

Enters: codebook-format claim CSVs (``gold``: load, validate, merge parts) and claims.
Leaves: a matching and its scores (``evaluate``: precision, recall, F1 per attribute and
per script, verdict accuracy), as text or JSON.
"""
