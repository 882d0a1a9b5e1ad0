"""``fudgedice mcp``: the dice as an assistant's tools, a Model Context Protocol
server on standard input and output, built when named: the SDK loads only when
it starts (its tools are :mod:`fudgedice.cli.mcp_tools`)."""

from __future__ import annotations

import gc

import click


@click.command()
def mcp() -> None:
    """Serve the dice to an AI assistant: a Model Context Protocol server on
    standard input and output, started by the assistant's app. Its tools answer
    the JSON of the commands of the same names: roll, odds (exact chances, and of
    success against a difficulty), compare (rolls side by side), read (dice rolled
    by hand), ladder and verify (a log of rolls anyone can check). So a game
    master preparing a session asks "what are the odds of Good vs Great?" and
    gets the exact fraction, not a guess.

    \b
    Examples:
      fudgedice mcp
      claude mcp add fudgedice -- fudgedice mcp

    \b
    An MCP client's configuration (Claude Desktop's claude_desktop_config.json,
    and the like) names the command:
      {"mcpServers": {"fudgedice": {"command": "fudgedice", "args": ["mcp"]}}}

    Each call is bounded as a command is; a roll the engine refuses is the
    tool's error, with the command line's message. Nothing is written.
    """
    from .mcp_tools import server  # here: the SDK loads slower than other commands run

    # a server runs for hours: each call pauses the collector for its own request
    gc.enable()
    server().run("stdio")
