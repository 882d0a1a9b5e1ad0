"""The dice stream as the only source of dice: every roll draws from it, in the
order its explanation lists the dice, and nothing else tosses."""

from __future__ import annotations

import ast
import hashlib
import hmac
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import fudgedice
from fudgedice import DiceTypeError, DiceValueError, DieRoll
from fudgedice.cli import main
from fudgedice.stream import Stream, fresh, room_stream, seed_key, seeded

SRC = Path(__file__).resolve().parent.parent / "src" / "fudgedice"

ORDERED = (
    "3d6",
    "4d6kh3",
    "2d6+3d8-d4",
    "(2d6+1)*2",
    "4dF+1",
    "4dF.1",
    "4dFkh2",
    "3d6!",
    "3d6!!",
    "3d6!p",
    "4d6r1",
    "4d6ro1",
    "d6!r1",
    "5d10>=8f1",
    "5d10!>=8>=8",
    "d%+d%",
    "Good vs Great",
    "Good opp Fair",
    "4dF@3d6",
    "4dF@d%",
    "4dF@4d6",
    "4dF@d6 opp 4dF",
    "power: 4dF+2 adv vs 3",
    "power: 4dF dis2 opp Good",
    "3d6fudge: Good opp Great",
    "d6: 4D+2 vs Moderate",
    "d6: 3D cp2",
    "d6: 5D opp 4D crit=cancel",
    "d6: 5D+1 dmg 3D+2",
    "d6: 4D actions=2 vs 10",
    "fate: Good vs Great",
    "fate: Good reroll vs Great",
    "fate: Fair opp Good",
    "fatecondensed: Good+2 vs Great",
    "fae: Good opp Fair",
)
"""Rolls of every system, with every way a toss can follow another."""


def _faces(die: DieRoll) -> list[int]:
    """The faces a die of the explanation was tossed as, read from its label:
    ``+``/`` ``/``-`` for Fudge dice, ``00`` for 100, ``p4``/``n3`` for the
    4d6 technique, ``6+6+3`` for a compounded chain."""
    label = die.face
    if die.die.fudge:
        return [{"+": 1, " ": 0, "-": -1}[label]]
    if label == "00":
        return [100]
    return [int(part) for part in label.lstrip("pn").split("+")]


@pytest.mark.parametrize("text", ORDERED)
def test_tosses_follow_the_explanation(text: str) -> None:
    for seed in range(60):
        rolled = fudgedice.roll(text, seed=seed)
        shown = [face for die in rolled.dice for face in _faces(die)]
        assert rolled.tosses == shown, f"seed {seed}"


def test_fudge_dice_toss_six_faces() -> None:
    asked: list[int] = []

    class Recording(Stream):
        def below(self, n: int) -> int:
            asked.append(n)
            return super().below(n)

        def draws(self, n: int, count: int) -> list[int]:
            asked.extend([n] * count)
            return super().draws(n, count)

    fudgedice.roll("4dF+2dF.1+d%", stream=Recording(b"k"))
    assert asked == [6, 6, 6, 6, 6, 6, 100]
    asked.clear()
    fudgedice.roll("4dF@3d6", stream=Recording(b"k"))
    assert asked == [6, 6, 6]


def test_the_stream_module_imports_nothing_of_the_project() -> None:
    tree = ast.parse((SRC / "stream.py").read_text("utf-8"))
    imported = [
        node.module or "." if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in (node.names if isinstance(node, ast.Import) else [node.names[0]])
    ]
    assert imported
    assert not [name for name in imported if name.startswith((".", "fudgedice"))], imported


def test_no_module_but_the_stream_draws_dice() -> None:
    """``random`` is gone from everything that rolls; sampling keeps NumPy's."""
    users = [
        path.relative_to(SRC).as_posix()
        for path in SRC.rglob("*.py")
        if "import random" in path.read_text("utf-8") or "from random" in path.read_text("utf-8")
    ]
    assert users == []


def test_draws_are_bounded() -> None:
    stream = Stream(b"key")
    assert {stream.below(1) for _ in range(20)} == {0}
    assert stream.draws(1, 3) == [0, 0, 0]
    for n in (0, -1, 2**32 + 1):
        with pytest.raises(ValueError):
            stream.below(n)
    with pytest.raises(TypeError):
        Stream("text key")  # type: ignore[arg-type]


def test_many_draws_are_one_draw_after_another() -> None:
    one, many = Stream(b"key", "c"), Stream(b"key", "c")
    assert many.draws(6, 50) == [one.below(6) for _ in range(50)]
    assert [*many.draws(7, 3), many.word()] == [*(one.below(7) for _ in range(3)), one.word()]


def test_long_keys_are_hashed_first_as_hmac_says() -> None:
    key = b"k" * 200
    block = hmac.new(key, b":0", hashlib.sha256).digest()
    assert Stream(key).word() == int.from_bytes(block[:4], "big")


def test_a_context_changes_every_draw() -> None:
    plain = Stream(b"key")
    other = Stream(b"key", "room:client:0")
    assert [plain.word() for _ in range(8)] != [other.word() for _ in range(8)]


def test_seeds_are_keys() -> None:
    assert seed_key(7) == seed_key("7") == b"7"
    assert seed_key("ß") == "ß".encode()
    assert seed_key(-3) == b"-3"
    with pytest.raises(TypeError):
        seed_key(True)


def test_unseeded_rolls_draw_fresh_bytes() -> None:
    totals = {tuple(fudgedice.roll("20d20").tosses) for _ in range(5)}
    assert len(totals) == 5
    assert fresh().word() != fresh().word() or fresh().word() != fresh().word()


def test_roll_takes_a_ready_stream() -> None:
    seed = bytes(range(32))
    stream = room_stream(seed, "room", "ann", 3)
    assert stream.context == "room:ann:3"
    rolled = fudgedice.roll("4dF+1", stream=stream)
    again = fudgedice.roll("4dF+1", stream=room_stream(seed, "room", "ann", 3))
    assert rolled.tosses == again.tosses and rolled.seed is None
    assert (
        fudgedice.roll("3d6", stream=seeded("x")).tosses == fudgedice.roll("3d6", seed="x").tosses
    )
    with pytest.raises(DiceValueError, match="a seed or from a stream, not both"):
        fudgedice.roll("3d6", seed=1, stream=seeded(1))
    with pytest.raises(DiceTypeError, match=r"stream is a fudgedice\.stream\.Stream"):
        fudgedice.roll("3d6", stream=b"key")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        room_stream(seed, "room", "ann", -1)


@pytest.mark.parametrize(
    ("seed", "message"),
    [
        ("x" * 1001, "too long"),
        ("\ud800", "UTF-8"),
        (10**1000, "at most 1000 digits"),
    ],
)
def test_seeds_that_are_no_key_are_refused(seed: object, message: str) -> None:
    with pytest.raises(DiceValueError, match=message):
        fudgedice.roll("3d6", seed=seed)  # type: ignore[arg-type]


def test_longest_seeds_roll() -> None:
    assert fudgedice.roll("3d6", seed="x" * 1000).tosses
    assert fudgedice.roll("3d6", seed=10**999).tosses


def test_a_cli_seed_that_is_no_key_is_a_message() -> None:
    result = CliRunner().invoke(main, ["roll", "3d6", "--seed", "x" * 1001])
    assert result.exit_code == 2
    assert "error: a seed of 1,001 characters is too long" in result.output


def test_a_run_rolls_seed_hash_i_and_unseeded_runs_fresh_bytes() -> None:
    result = CliRunner().invoke(main, ["roll", "4dF", "-n", "3", "--seed", "w", "--json"])
    data = json.loads(result.output)
    for index, rolled in enumerate(data, 1):
        assert rolled["seed"] == f"w#{index}"
        replay = fudgedice.roll("4dF", seed=f"w#{index}")
        assert [die["face"] for die in rolled["dice"]] == [die.face for die in replay.dice]
    unseeded = json.loads(CliRunner().invoke(main, ["roll", "9d20", "-n", "3", "--json"]).output)
    assert [rolled["seed"] for rolled in unseeded] == [None, None, None]
    assert len({str(rolled["dice"]) for rolled in unseeded}) == 3


def test_read_by_hand_draws_nothing() -> None:
    assert fudgedice.read("4dF", "+ - 0 +").tosses == []


def test_blocks_agree_across_the_switch_to_openssl(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process hashes its first blocks with the interpreter's own SHA-256, then
    with OpenSSL's: a stream that spans the switch reads every block as HMAC does."""
    from fudgedice import stream as module

    monkeypatch.setattr(module, "_builtin_blocks", 0)
    monkeypatch.setattr(module, "_sha256", module._starting_sha256)
    key, context = b"switch", "table:1"
    drawn = Stream(key, context)
    blocks = module._OPENSSL_AFTER  # two hashes a block: the switch comes halfway
    words = [drawn.word() for _ in range(8 * blocks)]
    assert module._sha256 is hashlib.sha256, "OpenSSL's SHA-256 never took over"
    expected = [
        int.from_bytes(digest[i : i + 4], "big")
        for block in range(blocks)
        for digest in [hmac.digest(key, f"{context}:{block}".encode(), "sha256")]
        for i in range(0, 32, 4)
    ]
    assert words == expected
