"""docs/deploy.md checked against the code it describes: every ``fudgedice``
command in its code blocks parses with the installed commands (so an option
renamed fails here), its systemd units pass ``systemd-analyze verify``, its
nginx block passes ``nginx -t``, and its ``max_connections`` arithmetic holds
with the server's own pool sizes. Its Caddyfile is not checked: Caddy is not
a Debian package of the machines the tests run on."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

from fudgedice.cli import main
from fudgedice.server.db import POOL_OVERFLOW, POOL_SIZE

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "deploy.md").read_text("utf-8")
BLOCKS = [
    (match.start(), match["lang"], match["body"])
    for match in re.finditer(r"^```(?P<lang>\w*)\n(?P<body>.*?)^```$", PAGE, flags=re.M | re.S)
]
INSTALLED = "/opt/fudgedice/bin/fudgedice"
"""Where the page installs the command (its units' ``ExecStart``)."""
INSTANCE = "8001"
"""A template unit's instance (``%i``, the port) where a test needs one."""


def commands() -> list[list[str]]:
    """Each ``fudgedice NAME ...`` line of the page's code blocks, split as a
    shell (or systemd's ``ExecStart``) would, from its command's name on."""
    names = set(main.list_commands(click.Context(main)))
    found = []
    for _start, _lang, body in BLOCKS:
        for line in body.replace("\\\n", " ").splitlines():
            words = shlex.split(line.replace("%i", INSTANCE), comments=True)
            for at, word in enumerate(words):
                named = re.fullmatch(r"(ExecStart=)?(\S*/)?fudgedice", word)
                if named and at + 1 < len(words) and words[at + 1] in names:
                    found.append(words[at + 1 :])
    return found


COMMANDS = commands()


def test_the_page_runs_the_commands_an_operator_needs() -> None:
    named = {words[0] for words in COMMANDS}
    assert {"serve", "backup", "restore"} <= named
    assert sum(words[0] == "serve" for words in COMMANDS) >= 3


@pytest.mark.parametrize("words", COMMANDS, ids=[" ".join(words) for words in COMMANDS])
def test_each_command_parses(words: list[str]) -> None:
    """Parsed as the command line would be, up to running it: an unknown or
    renamed option, or a value its option refuses, fails here."""
    context = click.Context(main, info_name="fudgedice")
    command = main.get_command(context, words[0])
    assert command is not None
    parsed = command.make_context(words[0], words[1:], parent=context)
    if words[0] == "serve":
        assert parsed.params["forwarded_allow_ips"] == "127.0.0.1"  # behind the page's proxy


def test_the_serve_defaults_are_the_pools_of_the_page() -> None:
    serve = main.get_command(click.Context(main), "serve")
    assert serve is not None
    defaults = {param.name: param.default for param in serve.params}
    assert (defaults["pool_size"], defaults["pool_overflow"]) == (POOL_SIZE, POOL_OVERFLOW)
    per_process = 2 * (POOL_SIZE + POOL_OVERFLOW) + 1
    assert f"With the defaults (`--pool-size {POOL_SIZE} --pool-overflow {POOL_OVERFLOW}`)" in PAGE
    assert f"a process holds {per_process}" in PAGE


def test_the_max_connections_arithmetic() -> None:
    sums = re.findall(r"(\d+) x \(2 x \((\d+) \+ (\d+)\) \+ 1\) \+ 3 = (\d+)", PAGE)
    assert len(sums) >= 3
    for processes, size, overflow, total in (tuple(map(int, found)) for found in sums):
        assert processes * (2 * (size + overflow) + 1) + 3 == total
    assert any(
        (int(size), int(overflow)) == (POOL_SIZE, POOL_OVERFLOW) for _, size, overflow, _ in sums
    )
    # the several processes' unit uses the pools of the example the default 100 holds
    assert ("3", "5", "10", "96") in sums
    assert any(
        words[:1] == ["serve"]
        and "--pool-size" in words
        and words[words.index("--pool-size") + 1] == "5"
        for words in COMMANDS
    )


def units() -> dict[str, str]:
    """The page's systemd units by file name (the path named before each)."""
    found = {}
    for start, lang, body in BLOCKS:
        if lang == "ini" and body.startswith("[Unit]"):
            name = re.findall(r"/etc/systemd/system/([\w@.-]+\.(?:service|timer))", PAGE[:start])[
                -1
            ]
            found[name] = body
    return found


def test_the_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    verify = shutil.which("systemd-analyze")
    if verify is None:
        pytest.skip("systemd-analyze is not installed (systemd's units are not checked)")
    found = units()
    assert set(found) >= {"fudgedice.service", "fudgedice@.service", "fudgedice-backup.timer"}
    executable = Path(sys.executable).parent / "fudgedice"
    if not executable.exists():
        pytest.skip(f"no {executable} to stand for {INSTALLED}")
    for name, body in found.items():
        (tmp_path / name).write_text(body.replace(INSTALLED, str(executable)), "utf-8")
    names = [name.replace("@.", f"@{INSTANCE}.") for name in found]
    ran = subprocess.run(
        [verify, "verify", *(f"./{name}" for name in names)],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    # systemd warns of an unknown key or a bad value and still exits 0: any
    # line naming one of these files is a fault of the page
    said = [
        line
        for line in ran.stderr.splitlines()
        if str(tmp_path) in line or ".service" in line or ".timer" in line
    ]
    assert ran.returncode == 0 and not said, ran.stderr


def test_the_nginx_block_passes_nginx_t(tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    openssl = shutil.which("openssl")
    if nginx is None or openssl is None:
        pytest.skip("nginx or openssl is not installed (apt-get install nginx-light): not checked")
    [block] = [body for _start, lang, body in BLOCKS if lang == "nginx"]
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "1", "-subj", "/CN=dice.example.org",
         "-keyout", str(tmp_path / "key.pem"), "-out", str(tmp_path / "cert.pem")],
        capture_output=True, check=True, timeout=60,
    )  # fmt: skip
    live = "/etc/letsencrypt/live/dice.example.org/"
    assert f"{live}fullchain.pem" in block and f"{live}privkey.pem" in block
    block = block.replace(f"{live}fullchain.pem", str(tmp_path / "cert.pem"))
    block = block.replace(f"{live}privkey.pem", str(tmp_path / "key.pem"))
    (tmp_path / "logs").mkdir()
    config = tmp_path / "nginx.conf"
    config.write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/logs/error.log;\nevents {{}}\n"
        f"http {{\naccess_log off;\n{block}}}\n",
        "utf-8",
    )
    ran = subprocess.run(
        [nginx, "-t", "-q", "-p", str(tmp_path), "-c", str(config)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
