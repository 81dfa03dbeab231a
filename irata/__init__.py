"""irata's command-line face: the root click group, its lazy sub-commands, and error handling."""
