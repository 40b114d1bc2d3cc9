"""Finished experiments and the players they compared, beside the package and not installed
with it; ``lab/README.md`` says what each found. Run them from the repository root, e.g.
``python -m lab.strength --help``.
"""
