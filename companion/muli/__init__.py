"""Das Störrische Muli's companion: ``rules`` (pure rule functions), ``data`` (its rule data, read
through ``companion.data``) and ``saved`` (the saved game's fold and description).

The game is declared in ``companion.games``."""
