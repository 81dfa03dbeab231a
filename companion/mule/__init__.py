"""The M.U.L.E. companion: the rules as pure functions (``rules``, ``pricing``, ``production``,
``events``), the numbers they use (``data``, read from the game's definitions), the Player
Board's Lands (``board``), the saved game (``saved``: the set-up, the fold, the status at a
glance) and the Game Turn in steps (``steps``: one function per Phase and per Colonist's part,
each checking its entry against the rules; ``turn``: which step comes now, and the walk).

The game is declared in ``companion.games``.
"""
