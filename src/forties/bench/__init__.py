"""Speed of the engine: random full hands per second through the public API, for every
preset, beside OpenSpiel's C++ euchre and spades played the same way.

Run it with ``make bench`` (or ``.venv/bin/python -m forties.bench --help``).
"""
