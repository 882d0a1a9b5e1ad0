"""The assistant's tools, ``fudgedice mcp``: a Model Context Protocol server
(the official SDK's ``MCPServer``) whose tools roll, odds, compare, read,
ladder and verify each answer what the command of that name prints with
``--json``, made by the functions that command calls.

Each call of a tool is one request of the work budget, as one command is; a
text the engine refuses (or a request past its limits) is answered as the
tool's error, with the message the command line prints, and the server goes
on. Loaded only by ``fudgedice mcp`` (:mod:`fudgedice.cli.mcp`): the SDK,
pydantic and starlette are longer to import than a roll takes to run."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from .. import __version__, api
from ..budget import within_budget
from ..comparisons import MAX_COMPARED
from ..comparisons import compare as measure_side_by_side
from ..errors import DiceError, DiceValueError
from ..log.storage import parse_log
from .answers import MOST_TIMES, measured, rolled, rolls_json
from .console import json_text
from .session_commands import checked

INSTRUCTIONS = """\
Exact odds and fair dice for Fudge, Power Fudge, 3d6 Fudge, Fate and the D6 System
(and plain dice: 3d6, 4d6kh3, d%). A roll is written in fudgedice's roll language:
'4dF+2', 'Good vs Great' (a Fudge skill on the ladder against a difficulty),
'Good opp Fair' (opposed), 'power: 4dF+2 adv', 'fate: Good vs Great',
'3d6fudge: Good', 'd6: 4D+2 vs Moderate', '4d6kh3'. For a game master preparing a
session: odds gives the exact chance of each result and of success; compare sets
rolls side by side; ladder lists the words of a system's levels; roll rolls; read
interprets dice rolled by hand; verify checks a table's or a session's log.
Each tool answers the JSON of the command line's --json."""

READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
"""``roll``: it changes nothing, but without a seed each call draws new dice."""
MEASURES = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
"""The other tools: they change nothing, and answer the same for the same arguments."""

Answer = Annotated[CallToolResult, dict[str, Any]]
"""A tool's answer: the command's JSON object (structured, and as text)."""
Rolls = Annotated[CallToolResult, dict[str, Any] | list[dict[str, Any]]]
"""``roll``'s answer: one roll's JSON, or a list for ``n`` rolls; structured
under ``result`` (the SDK's own shape for an answer that may not be an object)."""

Text = Annotated[
    str,
    Field(
        description="A roll in fudgedice's roll language, such as '4dF+1', 'Good vs Great', "
        "'fate: Good vs Great', '3d6fudge: Good', 'd6: 4D+2 vs Moderate', '4d6kh3'. "
        "A system prefix ('fate:', 'power:', '3d6fudge:', 'd6:') chooses the game; "
        "without one, Fudge."
    ),
]


def roll(
    text: Text,
    seed: Annotated[
        str | int | None,
        Field(description="A seed for a reproducible roll: the same seed, the same dice."),
    ] = None,
    n: Annotated[int, Field(ge=1, le=MOST_TIMES, description="How many times to roll.")] = 1,
) -> Rolls:
    """Roll dice and show every die and what happened to it: the total, the
    result on the ladder and the verdict against a difficulty ('Good vs Great').
    Each die is drawn from fudgedice's dice stream; with a seed, the same roll on
    every machine (n rolls with seed S roll S#1, S#2, ...). For chances, use odds."""
    seeded = None if seed is None else str(seed)
    return _answered(
        lambda: rolls_json(rolled(api.program_with_table(text, None), seeded, n, True)),
        structured=lambda payload: {"result": payload},
    )


def odds(
    text: Text,
    float_odds: Annotated[
        bool,
        Field(
            description="Float64 odds by FFT within a stated bound, for sums of pools too "
            "large to count exactly (such as 10000dF). Default: exact odds."
        ),
    ] = False,
) -> Answer:
    """The exact odds of a roll: each result's chance (as a fraction and a
    percentage), the chance of at least and at most each, the mean and spread,
    and the chance of each event (success, failure, critical failure, ...) of a
    roll against a difficulty, such as 'Good vs Great' or 'd6: 4D+2 vs Moderate'.
    Use it for 'what are my chances'; to weigh several rolls, use compare."""
    if float_odds:
        return _answered(lambda: api.odds(text, exact=False).to_dict())
    return _answered(lambda: measured(text, None).to_dict())


def compare(
    texts: Annotated[
        list[str],
        Field(
            min_length=2,
            max_length=MAX_COMPARED,
            description="The rolls, two or more, of any systems, such as "
            "['4dF', '3d6fudge: 0'] or ['Good vs Great', 'fate: Good vs Great']; "
            "a roll's '# label' names its column.",
        ),
    ],
) -> Answer:
    """Set the exact odds of two rolls or more side by side, of any systems: each
    value's chance, at least and at most, the events (success, critical failure,
    ...), mean and spread; with two rolls, the second less the first. Use it for
    'compare 4dF with 3d6 Fudge' or 'how much does +1 help'."""
    return _answered(lambda: measure_side_by_side(*texts).to_dict())


def read(
    form: Annotated[str, Field(description="The roll that was made, such as '4dF+2'.")],
    faces: Annotated[
        str | list[str | int],
        Field(
            description="The dice as they came up, in order: Fudge dice '+', '-', '0'; "
            "numbered dice by number; D6 System Wild Die tosses marked w ('w6 w3'). "
            "A string of faces separated by spaces, or a list."
        ),
    ],
) -> Answer:
    """Interpret dice rolled by hand: the total, the result on the ladder and the
    verdict, as if the roll had been rolled here."""
    return _answered(lambda: api.read(form, faces).to_dict())


def ladder(
    system: Annotated[
        str,
        Field(description="A system with a ladder: fudge, power, 3d6fudge, fate, ..."),
    ] = api.SYSTEMS.default,
) -> Answer:
    """The ladder of a system: the word of each level (Fudge's Terrible to
    Legendary, Fate's), for reading results and writing difficulties."""
    return _answered(lambda: api.ladder(system).to_dict())


def verify(
    log: Annotated[
        str | dict[str, Any],
        Field(
            description="The log document: the JSON a table's 'download log' or "
            "'fudgedice session export' gives (or a session file), as text or as an object."
        ),
    ],
    hashes: Annotated[
        list[str] | None,
        Field(
            description="Hashes shown during play, each 'SEQ:HASH' such as '3:6f225f62b968cb6c'."
        ),
    ] = None,
) -> Answer:
    """Check a log of rolls anyone can check: each revealed seed matches its
    commitment, every roll follows from its seed and text, the hash chain is
    unbroken and gap-free, every secret roll matches its placeholder, and each
    hash given is in the log at its seq. The report names the first entry that fails."""
    return _answered(lambda: checked(_log(log), hashes or ()).to_dict())


def _log(given: str | dict[str, Any]) -> Any:
    """The log document given as text or as an object, read within the bound of
    a log file (``fudgedice verify``'s)."""
    try:
        text = given if isinstance(given, str) else json.dumps(given, ensure_ascii=False)
    except RecursionError:  # as parse_log says of a text nested as deep
        raise DiceValueError("the log is not JSON (nested too deep)") from None
    # a lone surrogate passes as itself, and is refused as not UTF-8
    return parse_log(text.encode("utf-8", "surrogatepass"))


TOOLS: tuple[tuple[Callable[..., CallToolResult], ToolAnnotations], ...] = (
    (roll, READ_ONLY),
    (odds, MEASURES),
    (compare, MEASURES),
    (read, MEASURES),
    (ladder, MEASURES),
    (verify, MEASURES),
)


def server() -> MCPServer:
    """The MCP server, its tools registered."""
    built: MCPServer = MCPServer(
        name="fudgedice", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING"
    )
    for tool, hints in TOOLS:
        built.add_tool(tool, annotations=hints)
    return built


def _answered(
    make: Callable[[], Any], structured: Callable[[Any], dict[str, Any]] | None = None
) -> CallToolResult:
    """The JSON ``make`` builds as one request (as text, as ``--json`` prints it,
    and structured), or the message of what the engine refused, as an error."""
    try:
        payload = within_budget(make)()
    except DiceError as error:
        return CallToolResult(content=[_text(f"error: {error}")], is_error=True)
    return CallToolResult(
        content=[_text(json_text(payload, ensure_ascii=False))],
        structured_content=payload if structured is None else structured(payload),
    )


def _text(text: str) -> TextContent:
    return TextContent(type="text", text=text)
