"""Play together in the browser: ``forties serve``, its tables, database and pages.

The web package never imports the terminal client or the command line; it drives games
through the one table layer (``forties.table``).
"""
