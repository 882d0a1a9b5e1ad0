"""``fudgedice help``: the reference pages travel with the install. Each page
has one source, ``src/fudgedice/reference/NAME.md``, which the wheel ships and
``docs/NAME.md`` links; ``fudgedice help NAME`` prints it from the package."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import fudgedice
from fudgedice.cli import main

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "src" / "fudgedice" / "reference"
PAGES = sorted(path.stem for path in REFERENCE.glob("*.md"))
REQUIRED = {
    "notation",
    "fate",
    "fudge",
    "3d6fudge",
    "d6",
    "sheets",
    "table",
    "fairness",
    "discord",
    "deploy",
}


def _help(*words: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["help", *words])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def test_the_reference_pages_are_in_the_package() -> None:
    assert set(PAGES) >= REQUIRED


def test_help_lists_every_page_with_its_title() -> None:
    code, out = _help()
    assert code == 0
    pages, systems = out.split("\nThe systems")
    listed = re.findall(r"^  (\S+)\s+(.+)$", pages, flags=re.M)
    assert [name for name, _title in listed] == PAGES
    assert [name for name, _ in re.findall(r"^  (\S+)\s+(.+)$", systems, flags=re.M)] == list(
        fudgedice.SYSTEMS
    )
    for name, title in listed:
        first = (REFERENCE / f"{name}.md").read_text("utf-8").splitlines()[0]
        assert first.lstrip("# ").replace("`", "") == title


@pytest.mark.parametrize("page", PAGES)
def test_help_prints_the_page(page: str) -> None:
    code, out = _help(page)
    assert code == 0
    assert out == (REFERENCE / f"{page}.md").read_text("utf-8")


@pytest.mark.parametrize("page", ["notations", "roll", "../README", ""])
def test_an_unknown_page_is_refused_with_the_list(page: str) -> None:
    code, out = _help(page)
    assert code == 2
    assert f"'{page}' is not one of" in out
    assert all(f"'{name}'" in out for name in PAGES)
    assert "Traceback" not in out


def test_the_help_points_at_the_pages_not_at_docs() -> None:
    out = CliRunner().invoke(main, ["--help"]).output
    assert "fudgedice help notation" in out
    for command in main.list_commands(click.Context(main)):
        shown = CliRunner().invoke(main, [command, "--help"])
        assert shown.exit_code == 0, shown.output
        assert "docs/" not in shown.output, command


def test_docs_links_each_page_to_its_one_source() -> None:
    for page in PAGES:
        link = ROOT / "docs" / f"{page}.md"
        assert link.is_symlink(), link
        assert link.resolve() == (REFERENCE / f"{page}.md").resolve()
    # every page the README names resolves to a file
    readme = (ROOT / "README.md").read_text("utf-8")
    for target in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (ROOT / target).is_file(), target


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project built as a wheel (from a copy, so that the build leaves no
    files in the repository), then unpacked as an install would place it."""
    base = tmp_path_factory.mktemp("wheel")
    project = base / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md"):
        (project / name).write_bytes((ROOT / name).read_bytes())
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    shutil.copytree(ROOT / "src", project / "src", ignore=ignore)
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check", "-q"]
    built = subprocess.run(
        [*pip, "-w", str(base / "dist"), str(project)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    (found,) = (base / "dist").glob("fudgedice-*.whl")
    return found


def test_the_wheel_holds_the_pages_and_the_console_script(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for page in PAGES:
            inside = f"fudgedice/reference/{page}.md"
            assert inside in names
            assert archive.read(inside) == (REFERENCE / f"{page}.md").read_bytes()
        (entry_points,) = [name for name in names if name.endswith("entry_points.txt")]
        assert "fudgedice = fudgedice.cli.entry:main" in archive.read(entry_points).decode()


def test_help_notation_runs_from_the_installed_wheel(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    code = (
        "import sys, fudgedice\n"
        "print(fudgedice.__file__, file=sys.stderr)\n"
        "from fudgedice.cli.entry import main\n"
        "main(sys.argv[1:])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "help", "notation"],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # away from the repository: only the unpacked wheel is on the path
        env={**os.environ, "PYTHONPATH": str(site)},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith(str(site)), done.stderr
    assert done.stdout == (REFERENCE / "notation.md").read_text("utf-8")
