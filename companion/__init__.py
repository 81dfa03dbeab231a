"""The companion: the table's arithmetic for each game, and saved games (``session``)."""
