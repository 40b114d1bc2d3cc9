"""The project's benchmarks, beside the package and not installed with it: the engine's
random hands per second (``make bench``), the solver's and the expert's times, the research
environments (``make bench-envs``) and the web server under load (``make loadtest``,
``make loadtest-tables``). Run them from the repository root, e.g. ``python -m bench --help``.
"""
