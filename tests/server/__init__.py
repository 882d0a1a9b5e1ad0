"""The table: fudgedice serve and its HTTP API, run as real servers."""
