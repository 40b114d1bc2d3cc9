"""The ``forties`` commands of the clients and the hall, one module each, which ``forties.cli``
registers: the terminal's ``play``, ``replay`` and ``pad``, the web's ``serve`` and the
hall's ``hall``. They sit with the command line, above the clients, which never import them."""
