"""The table view (the optional extra ``[table]``): a saved game live on a screen everyone
sees, and each player's moves from their own phone. ``irata play serve`` starts it
(:mod:`irata.table.cli`); the web app is :mod:`irata.table.app`, the content of its pages
:mod:`companion.table`. Importing this package imports none of the web stack."""
