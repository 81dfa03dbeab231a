"""Mule Goes Crazy!'s companion: ``rules`` (pure rule functions), ``data`` (its rule data, read
through ``companion.data``), ``saved`` (the saved game's event builders, fold and description),
``moves`` (the steps the table records, as it types them) and ``game`` (its declaration,
played by ``companion.play``).

The game is declared in ``companion.games``."""
