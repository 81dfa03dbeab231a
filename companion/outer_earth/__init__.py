"""Outer Earth's companion: ``rules`` (pure rule functions), ``data`` (its rule data, read
through ``companion.data``), ``saved`` (the saved game's fold and description), ``moves`` and
``game`` (its moves as the table types them, and its declaration, played by
``companion.play``).

The game is declared in ``companion.games``."""
