"""The M.U.L.E. companion: the rules as pure functions (``rules``, ``pricing``, ``production``,
``events``), the numbers they use (``data``, read from the game's definitions), the Player
Board's Lands (``board``) and the saved game (``saved``: the fold, its description, a turn).

The game is declared in ``companion.games``.
"""
