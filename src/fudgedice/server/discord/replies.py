"""What a command answers (:class:`Reply`) and what it was asked with
(:class:`Call`): shared by the commands and the deferral."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from starlette.datastructures import State

from .interaction import Interaction
from .settings import DiscordSettings

Files = tuple[tuple[str, bytes, str], ...]
"""Attachments: (file name, content, media type)."""


@dataclass(frozen=True)
class Reply:
    """A command's answer: its message (to the user alone when
    ``ephemeral``), its attachments, and messages for the whole channel
    that follow it (a hidden roll's placeholder)."""

    message: dict[str, Any]
    ephemeral: bool = False
    files: Files = ()
    channel: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class Call:
    """One command as the table answers it: the interaction, the settings,
    what the process shares (``app.state``) and the table's address."""

    interaction: Interaction
    settings: DiscordSettings
    state: State
    base: str
    """The table's address as players reach it, without a final '/'."""

    @property
    def user(self) -> str:
        who = self.interaction.who
        return who.id if who is not None else ""

    @property
    def allowance(self) -> str:
        """The key of the address allowances: every interaction comes from
        Discord's addresses, so a guild's (a direct message's user's) stand
        for a client's."""
        guild = self.interaction.guild_id
        return f"discord {guild}" if guild else f"discord user {self.user}"

    def link(self, room: str) -> str:
        """The room's page."""
        return f"{self.base}/r/{room}"

    def webhook(self) -> str:
        """Where follow-ups of this interaction go (Discord's webhook of the
        application and the interaction's token)."""
        application = self.settings.application_id or self.interaction.application_id
        return f"{self.settings.api.rstrip('/')}/webhooks/{application}/{self.interaction.token}"
