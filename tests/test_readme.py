"""The README's shell examples, run through click's CliRunner.

Every line of a shell block of README.md that runs ``fudgedice`` (with or
without a ``$`` prompt) is a test: it must exit 0, or the code its comment
gives (``# exit 2``). Where a console block shows a command's output after a
``$`` prompt, the output must match, for commands whose output is fixed
(``roll`` with ``--seed``, and every command that rolls nothing). Shell blocks
are fenced ``sh``/``console``/... blocks and indented code blocks.

A fenced ``toml`` block whose first line is a comment naming a file
(``# ashley.toml``) is that file for every command after it, and a command
runs after the commands before it in its block: a character sheet is shown,
rolled by name and changed as a reader would, one command after another.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import fudgedice
from fudgedice.cli import main
from fudgedice.render.odds_table import odds_text

README = Path(__file__).resolve().parent.parent / "README.md"
SHELL_FENCES = frozenset({"sh", "shell", "bash", "console", "shell-session", "text"})
_EXIT_COMMENT = re.compile(r"\bexit(?:s)?(?:\s+code|\s+with)?\s+(\d+)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Example:
    line: int
    """1-based line of README.md the command is on."""
    command: str
    """The command as written, prompt and comment removed."""
    args: tuple[str, ...]
    """Arguments after ``fudgedice``, split as a POSIX shell would."""
    exit_code: int
    output: str | None
    """The output the README shows for it, or None when it shows none."""
    files: tuple[tuple[str, str], ...] = ()
    """Files (``toml`` blocks that name one) shown before it: (name, text)."""
    before: tuple[tuple[str, ...], ...] = ()
    """The arguments of the commands before it in its block, run first."""

    @property
    def id(self) -> str:
        return f"line{self.line}: {self.command}"


def _split_comment(line: str) -> tuple[str, str]:
    """(command, comment): a shell comment is a ``#`` outside quotes at the start
    of a word, so ``"d20+5 # attack"`` and ``d20#x`` keep their ``#``."""
    quote: str | None = None
    escaped = False
    for index, char in enumerate(line):
        if escaped:
            escaped = False
        elif char == "\\" and quote != "'":
            escaped = True
        elif quote is not None:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1].isspace()):
            return line[:index].rstrip(), line[index + 1 :].strip()
    return line.rstrip(), ""


def _blocks(text: str) -> list[tuple[int, bool, list[str]]]:
    """Shell code blocks: (first line number, uses $ prompts, lines)."""
    lines = text.splitlines()
    blocks: list[tuple[int, bool, list[str]]] = []
    index = 0
    previous_blank = True
    while index < len(lines):
        line = lines[index]
        fence = re.match(r"^(\s*)(`{3,}|~{3,})\s*([\w-]*)", line)
        if fence:
            marker, language = fence.group(2), fence.group(3).lower()
            start = index + 1
            index += 1
            while index < len(lines) and not lines[index].strip().startswith(marker):
                index += 1
            body = lines[start:index]
            if language in SHELL_FENCES:
                blocks.append((start + 1, _prompted(body), body))
            index += 1
            previous_blank = False
            continue
        if line.startswith("    ") and line.strip() and previous_blank:
            start = index
            while index < len(lines) and (
                lines[index].startswith("    ") or not lines[index].strip()
            ):
                index += 1
            body = [raw[4:] for raw in lines[start:index]]
            blocks.append((start + 1, _prompted(body), body))
            previous_blank = True
            continue
        previous_blank = not line.strip()
        index += 1
    return blocks


def _prompted(body: list[str]) -> bool:
    return any(line.lstrip().startswith("$ ") for line in body)


def _command(line: str, prompted: bool) -> str | None:
    """The ``fudgedice ...`` command on this line, or None."""
    stripped = line.strip()
    if prompted:
        if not stripped.startswith("$ "):
            return None
        stripped = stripped[2:].lstrip()
    return stripped if stripped.startswith("fudgedice ") else None


_FILE_BLOCK = re.compile(r"^```toml\n#\s*([\w.-]+\.toml)\s*\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _files(text: str) -> list[tuple[int, str, str]]:
    """Each ``toml`` block that names a file: (its line, the name, the text)."""
    return [
        (text.count("\n", 0, found.start()) + 1, found.group(1), found.group(2))
        for found in _FILE_BLOCK.finditer(text)
    ]


def examples_from(text: str) -> list[Example]:
    found: list[Example] = []
    files = _files(text)
    for first_line, prompted, body in _blocks(text):
        before: list[tuple[str, ...]] = []
        for offset, line in enumerate(body):
            command = _command(line, prompted)
            if command is None:
                continue
            command, comment = _split_comment(command)
            match = _EXIT_COMMENT.search(comment)
            output: str | None = None
            if prompted:
                shown: list[str] = []
                for following in body[offset + 1 :]:
                    if following.strip().startswith("$ "):
                        break
                    shown.append(following.rstrip())
                while shown and not shown[-1]:
                    shown.pop()
                output = "\n".join(shown) if shown else None
            found.append(
                Example(
                    line=first_line + offset,
                    command=command,
                    args=tuple(shlex.split(command)[1:]),
                    exit_code=int(match.group(1)) if match else 0,
                    output=output,
                    files=tuple((name, body) for line, name, body in files if line < first_line),
                    before=tuple(before),
                )
            )
            before.append(found[-1].args)
    return found


EXAMPLES = examples_from(README.read_text(encoding="utf-8"))


def _option(args: tuple[str, ...], *names: str) -> str | None:
    for index, arg in enumerate(args):
        for name in names:
            if arg == name and index + 1 < len(args):
                return args[index + 1]
            if arg.startswith(f"{name}="):
                return arg.split("=", 1)[1]
    return None


def _expression(args: tuple[str, ...]) -> str:
    """The roll of a ``roll``/``odds`` command: its arguments that are not options."""
    words: list[str] = []
    skip = False
    for arg in args[1:]:
        if skip:
            skip = False
        elif arg in ("-n", "--times", "--seed", "--plot"):
            skip = True
        elif not arg.startswith("--") and not re.fullmatch(r"-[a-z]", arg):
            words.append(arg)
    return " ".join(words).strip()


def _run(args: tuple[str, ...]) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _fixed_output(example: Example) -> bool:
    """Whether the command prints the same every time it runs."""
    return example.args[0] != "roll" or _option(example.args, "--seed") is not None


def _changes_a_sheet(example: Example) -> bool:
    """A second run would find the sheet changed by the first."""
    return "--spend" in example.args or (
        example.args[:1] == ("sheet",) and example.args[1:2] != ("show",)
    )


def test_readme_has_shell_examples() -> None:
    assert any(example.args[:1] == ("roll",) for example in EXAMPLES), EXAMPLES
    assert any(example.args[:1] == ("odds",) for example in EXAMPLES), EXAMPLES


@pytest.mark.parametrize("example", EXAMPLES, ids=[example.id for example in EXAMPLES])
def test_readme_example(example: Example, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # --plot and friends write here, not into the checkout
    for name, text in example.files:
        (tmp_path / name).write_text(text, "utf-8")
    for earlier in example.before:
        _run(earlier)
    result = _run(example.args)
    assert result.exit_code == example.exit_code, result.output

    plot = _option(example.args, "--plot")
    if plot is not None:
        written = tmp_path / plot
        assert written.is_file() and written.stat().st_size > 0
        said = [line for line in result.output.splitlines() if line.startswith("chart written to ")]
        assert len(said) == 1, result.output
        assert (tmp_path / said[0].removeprefix("chart written to ")).resolve() == written.resolve()

    if _fixed_output(example) and not _changes_a_sheet(example):
        assert _run(example.args).output == result.output, "the same command printed otherwise"
    if example.output is not None and _fixed_output(example):
        assert result.output.rstrip("\n") == example.output

    if example.exit_code != 0 or "--json" in example.args or "--sheet" in example.args:
        return  # a roll by trait name is checked against its roll text in tests/sheets
    expression = _expression(example.args)
    if example.args[0] == "roll" and (seed := _option(example.args, "--seed")) is not None:
        # cli: roll k of -n N uses seed base + k, so each can be replayed alone.
        times = int(_option(example.args, "-n", "--times") or 1)
        base = int(seed) if seed.lstrip("-").isdigit() else seed
        seeds = [
            base if times == 1 else base + k if isinstance(base, int) else f"{base}#{k + 1}"
            for k in range(times)
        ]
        texts = [fudgedice.roll(expression, seed=each).text for each in seeds]
        assert result.output == "\n\n".join(texts) + "\n"
        for each, text in zip(seeds, texts, strict=True):
            assert _run(("roll", expression, "--seed", str(each))).output == text + "\n"
    elif example.args[0] == "odds":
        assert result.output.startswith(odds_text(fudgedice.odds(expression)) + "\n")


SAMPLE = """\
Text.

```console
$ fudgedice roll "3d6" --seed 1
3d6 = 7
  3d6: 1 3 3 = 7

$ fudgedice roll 3d6kh4   # exit 2
error: can't keep 4 of 3 dice
$ make test
```

```python
>>> print("fudgedice roll 2d6")
fudgedice roll 2d6

```

    fudgedice odds "d20+5 # attack"
    fudgedice roll d20#x -n 2

```sh
fudgedice roll "4dF" # a comment, exit code 3
```
"""


def test_examples_are_read_like_a_shell() -> None:
    found = examples_from(SAMPLE)
    assert [(e.line, e.args, e.exit_code) for e in found] == [
        (4, ("roll", "3d6", "--seed", "1"), 0),
        (8, ("roll", "3d6kh4"), 2),
        (19, ("odds", "d20+5 # attack"), 0),
        (20, ("roll", "d20#x", "-n", "2"), 0),
        (23, ("roll", "4dF"), 3),
    ]
    assert found[0].output == "3d6 = 7\n  3d6: 1 3 3 = 7"
    assert found[1].output == "error: can't keep 4 of 3 dice"
    assert [e.output for e in found[2:]] == [None, None, None]


def test_shown_output_is_compared() -> None:
    shown, refused = examples_from(SAMPLE)[:2]
    assert shown.output is not None and refused.output is not None
    assert _run(shown.args).output.rstrip("\n") == shown.output
    result = _run(refused.args)
    assert result.exit_code == refused.exit_code
    assert result.output.splitlines()[0] == refused.output
