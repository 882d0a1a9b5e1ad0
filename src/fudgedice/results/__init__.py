"""What a roll produced: every die's story (DieRoll and its Mark flags), the
Roll every system returns, and printed tables. Plain data."""
