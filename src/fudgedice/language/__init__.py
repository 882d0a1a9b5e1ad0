"""Text to parse tree: the grammar, the immutable tree, and what the parser says
when a text is not a roll. Knows no game system."""
