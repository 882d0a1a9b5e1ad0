"""What the table needs to know of a Discord application: given to
``fudgedice serve`` by its options and environment (docs/discord.md)."""

from __future__ import annotations

from dataclasses import dataclass, field

API = "https://discord.com/api/v10"
"""Discord's HTTP API (version 10), where follow-ups and channel messages go."""


@dataclass(frozen=True)
class DiscordSettings:
    """``public_key``: the application's Ed25519 public key (32 bytes), which
    every interaction's signature is checked with; without settings the
    endpoint answers 404. ``application_id`` names the application in
    follow-ups' URLs; ``bot_token`` (from the environment, never an option
    anyone could read in a process list) lets the table post rolls made at
    the page into the bound channel; ``gm_roles`` are role IDs whose holders
    act as a channel's GM besides the user who bound it; ``public_url`` is
    the table's address as players reach it (links in messages); ``api`` is
    Discord's API (a local stand-in in tests)."""

    public_key: bytes
    application_id: str | None = None
    bot_token: str | None = field(default=None, repr=False)
    gm_roles: frozenset[str] = frozenset()
    public_url: str | None = None
    api: str = API
