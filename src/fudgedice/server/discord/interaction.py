"""An interaction as Discord sends it, read from its (signed) body: only
the fields the table uses, each checked, so that nothing Discord adds
later, and nothing malformed, reaches the commands."""

from __future__ import annotations

from typing import Annotated, Any, Final

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from ..problems import Problem

PING: Final = 1
COMMAND: Final = 2
PONG: Final = 1
ANSWER: Final = 4
"""CHANNEL_MESSAGE_WITH_SOURCE: the answer, now."""
LATER: Final = 5
"""DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: the answer follows (PATCH @original)."""

Snowflake = Annotated[str, StringConstraints(pattern=r"^[0-9]{1,20}$")]
"""A Discord ID: digits (they fit the tables' String(32) columns)."""
Token = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.\-]{1,1000}$")]
"""An interaction's token: it goes into follow-ups' URLs, so no '/' or '?'."""


class _Read(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class User(_Read):
    id: Snowflake
    username: str = ""
    global_name: str | None = None

    @property
    def shown(self) -> str:
        return self.global_name or self.username


class GuildMember(_Read):
    user: User
    roles: list[Snowflake] = Field(default_factory=list, max_length=500)


class Option(_Read):
    name: str
    value: str | bool | int | float | None = None


class Data(_Read):
    name: str
    options: list[Option] = Field(default_factory=list, max_length=25)


class Channel(_Read):
    id: Snowflake
    name: str | None = None


class Interaction(_Read):
    type: int
    id: Snowflake | None = None
    """Discord's own id of the interaction: a roll's client seed (docs/discord.md)."""
    token: Token | None = None
    application_id: Snowflake | None = None
    guild_id: Snowflake | None = None
    channel_id: Snowflake | None = None
    channel: Channel | None = None
    member: GuildMember | None = None
    user: User | None = None
    data: Data | None = None

    @property
    def who(self) -> User | None:
        """Who asked: ``member.user`` in a server, ``user`` in a direct message."""
        return self.member.user if self.member is not None else self.user

    @property
    def roles(self) -> frozenset[str]:
        return frozenset(self.member.roles) if self.member is not None else frozenset()

    @property
    def where(self) -> str | None:
        """The channel's ID."""
        return self.channel_id or (self.channel.id if self.channel else None)

    @property
    def command(self) -> str:
        """The slash command's name ("" if none)."""
        return self.data.name if self.data is not None else ""

    def option(self, name: str) -> Any:
        """The value of the command's option ``name``, None if not given."""
        for given in self.data.options if self.data else ():
            if given.name == name:
                return given.value
        return None

    def text(self, name: str) -> str | None:
        value = self.option(name)
        return value if isinstance(value, str) else None


def read(body: bytes) -> Interaction:
    """The interaction, or a 400 naming what is wrong with it."""
    try:
        return Interaction.model_validate_json(body)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the body"
        raise Problem(400, f"not an interaction: {where}: {first['msg']}") from None
