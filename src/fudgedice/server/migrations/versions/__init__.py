"""The migrations, one a file, in order."""
