"""Real servers for the table's tests: ``fudgedice serve`` in a child process
on a free port of 127.0.0.1, on SQLite or on a PostgreSQL server that these
fixtures start (Debian's ``postgresql``, run as the ``postgres`` user when the
tests run as root) and stop.

Waiting here is bounded (a server that never answers fails the test), and no
test asserts how long anything took.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import uvicorn
from click.testing import CliRunner
from fastapi import FastAPI

from fudgedice import sheets
from fudgedice.cli import main
from fudgedice.server.app import create_app
from fudgedice.server.db import Database, connect

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
NO_LIMITS = (
    "--rate",
    "1000",
    "--burst",
    "1000",
    "--address-rate",
    "1000",
    "--address-burst",
    "1000",
)
"""Rate limits no test of the API reaches: all its members roll from 127.0.0.1."""
START_WITHIN = 60.0
"""Seconds a server may take to start before the test fails."""
PORT_TRIES = 5
"""Ports a server is started on before the test fails, each found free just before."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def listens(pid: int, port: int) -> bool:
    """Whether process ``pid`` itself listens on TCP ``port`` (read from
    Linux's /proc; elsewhere, taken as so)."""
    table = Path("/proc/net/tcp")
    if not table.exists():
        return True
    sockets = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:["):
                sockets.add(target[len("socket:[") : -1])
    for line in table.read_text().splitlines()[1:]:
        fields = line.split()
        listening = fields[3] == "0A"
        if listening and int(fields[1].rsplit(":", 1)[1], 16) == port and fields[9] in sockets:
            return True
    return False


@dataclass
class Server:
    """One ``fudgedice serve`` process."""

    db: str
    args: tuple[str, ...] = ()
    port: int = 0
    process: subprocess.Popen[str] | None = None
    log: Path | None = None
    started: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        for _ in range(PORT_TRIES):
            if self._started_on(free_port()):
                return self
        raise AssertionError(f"no free port kept for the server:\n{self.output()}")

    def _started_on(self, port: int) -> bool:
        """Start on ``port``: False if another program took it first."""
        self.port = port
        path = os.environ.get("PYTHONPATH")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), *([path] if path else [])])}
        command = [
            sys.executable, "-c", "from fudgedice.cli import main; main()", "serve",
            "--port", str(self.port), "--db", self.db, *self.args,
        ]  # fmt: skip
        if self.log is not None:
            self.log.unlink(missing_ok=True)
        handle, name = tempfile.mkstemp(prefix="fudgedice-serve-", suffix=".log")
        self.log = Path(name)
        self.process = subprocess.Popen(
            command, stdout=handle, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT
        )
        os.close(handle)
        deadline = time.monotonic() + START_WITHIN
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                if "address already in use" in self.output():
                    return False
                raise AssertionError(f"the server stopped at start:\n{self.output()}")
            try:
                answered = httpx.get(f"{self.url}/api/health", timeout=2).status_code == 200
            except httpx.HTTPError:
                answered = False
            # the answer must be this server's: a port found free may be taken
            # before the server binds it (other test runs share the machine),
            # and another program's server answers there in its stead
            if answered and listens(self.process.pid, self.port):
                return True
            time.sleep(0.05)
        raise AssertionError(f"the server did not answer within {START_WITHIN} s:\n{self.output()}")

    def output(self) -> str:
        return self.log.read_text("utf-8", "replace") if self.log else ""

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, no goodbye."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.log is not None:
            self.log.unlink(missing_ok=True)


FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item,
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.when == "call":
        item.stash[FAILED] = report.failed
    return report


@pytest.fixture
def start_server(request: pytest.FixtureRequest) -> Iterator[Callable[..., Server]]:
    """Start servers on a database; every one is stopped after the test, and
    what each printed (a traceback behind a 500) is shown if the test failed."""
    servers: list[Server] = []

    def start(db: str, *args: str) -> Server:
        server = Server(db, args).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        if request.node.stash.get(FAILED, False):
            print(f"--- the server on port {server.port} printed:\n{server.output()}")
        server.stop()


@pytest.fixture
def start_unlimited(start_server: Callable[..., Server]) -> Callable[[str], Server]:
    """Start servers as :func:`start_server` does, with rate limits (:data:`NO_LIMITS`)
    that tests rolling flat out from one address never reach."""
    return lambda db: start_server(db, *NO_LIMITS)


# ------------------------------------------------------------------ PostgreSQL


def _pg_bin(name: str) -> str:
    found = shutil.which(name) or next(
        iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None
    )
    if found is None:
        raise AssertionError(
            f"PostgreSQL's {name} is not installed: 'make postgres' installs Debian's postgresql"
        )
    return found


@dataclass
class Postgres:
    """A PostgreSQL server of the tests' own, in a temporary folder."""

    folder: Path
    port: int
    as_user: list[str]

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def start(self) -> None:
        options = f"-h 127.0.0.1 -p {self.port} -k {self.folder} -F -c max_connections=300"
        log = str(self.folder / "log")
        self.run(_pg_bin("pg_ctl"), "-D", str(self.data), "-o", options, "-l", log, "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        """``fast``: connections ended, as an operator's stop or restart ends
        them; ``immediate``: a crash."""
        self.run(_pg_bin("pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        with psycopg.connect(self.url("postgres"), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def run(self, *command: str) -> None:
        subprocess.run(
            [*self.as_user, *command], check=True, capture_output=True, text=True, timeout=120
        )


@contextlib.contextmanager
def _postgres_server() -> Iterator[Postgres]:
    # PostgreSQL refuses to run as root: as root, run it as the postgres user
    as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    folder = Path(tempfile.mkdtemp(prefix="fudgedice-pg-"))
    if as_user:
        shutil.chown(folder, "postgres")
    server = Postgres(folder, free_port(), as_user)
    data = str(server.data)
    server.run(_pg_bin("initdb"), "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8")
    server.start()
    try:
        yield server
    finally:
        with contextlib.suppress(subprocess.SubprocessError):
            server.stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    with _postgres_server() as server:
        yield server


@pytest.fixture(scope="module")
def own_postgres() -> Iterator[Postgres]:
    """A PostgreSQL server of the module's alone, for tests that stop and
    start it (the session's is shared by every other test)."""
    with _postgres_server() as server:
        yield server


# ------------------------------------------------------------- a room to use


@dataclass
class Table:
    """A client of one server: room, members and their tokens."""

    url: str
    client: httpx.Client = field(init=False)

    def __post_init__(self) -> None:
        self.client = httpx.Client(base_url=self.url, timeout=30)

    def room(self, name: str = "Table", **extra: Any) -> dict[str, Any]:
        answer = self.client.post("/api/rooms", json={"name": name, **extra})
        assert answer.status_code == 201, answer.text
        room: dict[str, Any] = answer.json()
        return room

    def join(self, room: str, name: str) -> dict[str, Any]:
        answer = self.client.post(f"/api/rooms/{room}/members", json={"name": name})
        assert answer.status_code == 201, answer.text
        member: dict[str, Any] = answer.json()
        return member

    def roll(self, room: str, token: str, text: str, **extra: Any) -> httpx.Response:
        return self.client.post(
            f"/api/rooms/{room}/rolls", json={"text": text, **extra}, headers=bearer(token)
        )

    def get(self, path: str, token: str | None = None, **params: Any) -> httpx.Response:
        return self.client.get(path, headers=bearer(token) if token else {}, params=params)

    def rolls(self, room: str, token: str, **params: Any) -> list[dict[str, Any]]:
        answer = self.get(f"/api/rooms/{room}/rolls", token, **params)
        assert answer.status_code == 200, answer.text
        rolls: list[dict[str, Any]] = answer.json()["rolls"]
        return rolls

    @contextlib.contextmanager
    def live(self, room: str, token: str, **params: Any) -> Iterator[Iterator[tuple[str, Any]]]:
        """The live feed's events, ``("ready", ...)`` first once it is subscribed."""
        with self.client.stream(
            "GET", f"/api/rooms/{room}/live", headers=bearer(token), params=params
        ) as answer:
            assert answer.status_code == 200, answer.read().decode()
            assert answer.headers["content-type"].startswith("text/event-stream")
            yield sse_events(answer.iter_lines())

    @staticmethod
    def until(events: Iterator[tuple[str, Any]], kind: str) -> Any:
        """The data of the feed's next ``kind`` event, the ones before it passed over."""
        for event, data in events:
            if event == kind:
                return data
        raise AssertionError(f"the feed ended before a {kind!r} event")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


EVENT_WITHIN = 30.0
"""Seconds a test waits for an awaited live event before it fails (the feed's
keep-alive lines let it check while nothing comes)."""


def sse_events(lines: Iterator[str]) -> Iterator[tuple[str, Any]]:
    """(event, data) pairs read from a text/event-stream's lines."""
    event, data = "message", list[str]()
    deadline = time.monotonic() + EVENT_WITHIN
    for line in lines:
        if time.monotonic() > deadline:
            raise AssertionError(f"no awaited live event within {EVENT_WITHIN} s")
        if line == "":
            if data:
                yield event, json.loads("\n".join(data))
                deadline = time.monotonic() + EVENT_WITHIN
            event, data = "message", []
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def served(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Table]:
    """One server for a whole module, on each database in turn."""
    if request.param == "sqlite":
        db = str(tmp_path_factory.mktemp("table") / "table.sqlite3")
    else:
        pg: Postgres = request.getfixturevalue("postgres")
        db = pg.create_database(f"api_{os.getpid()}_{free_port()}")
    server = Server(db, NO_LIMITS).start()
    table = Table(server.url)
    try:
        yield table
    finally:
        table.client.close()
        server.stop()


@pytest.fixture
def table_of() -> Iterator[Callable[[Server], Table]]:
    """Clients of servers a test started itself, closed after it."""
    tables: list[Table] = []

    def of(server: Server) -> Table:
        tables.append(Table(server.url))
        return tables[-1]

    yield of
    for table in tables:
        table.client.close()


# ------------------------------------------------- the app in the test's process
#
# uvicorn on a thread of the test's own process, on a free port of 127.0.0.1:
# for a test that sets the app's bounds, or reads what it keeps (``app.state``),
# which a ``fudgedice serve`` child would hide.

WAIT = 30.0
"""Seconds a test waits for the server to start, stop or notice something."""


@contextlib.contextmanager
def _serving(app: FastAPI) -> Iterator[str]:
    """``app`` on uvicorn on a thread of this process, on a free port of
    127.0.0.1: its address, until the block ends."""
    config = uvicorn.Config(app, host="127.0.0.1", port=free_port(), log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{config.port}"
    finally:
        server.should_exit = True
        thread.join(WAIT)


@pytest.fixture
def serving() -> Callable[[FastAPI], contextlib.AbstractContextManager[str]]:
    """``serving(app)``: any app (one router on a bare app, say) served in
    this process, as a context manager giving its address."""
    return _serving


@contextlib.contextmanager
def _served_here(db: Database, **settings: Any) -> Iterator[Here]:
    """A client of the app on ``db`` (``settings`` to :func:`create_app`, the
    rate limits out of reach unless given); its app is ``table.app``."""
    limits = {"rolls_per_second": 1000, "burst": 1000, "address_burst": 1000}
    app = create_app(db, **{**limits, **settings})
    with _serving(app) as url:
        table = Here(url, app)
        try:
            yield table
        finally:
            table.client.close()


@pytest.fixture
def served_here() -> Callable[..., contextlib.AbstractContextManager[Here]]:
    """``served_here(db, **settings)``: the app on ``db`` in this process, as
    a context manager giving its client (``settings`` to ``create_app``)."""
    return _served_here


class Here(Table):
    """A client that also holds the app it speaks to."""

    def __init__(self, url: str, app: FastAPI) -> None:
        super().__init__(url)
        self.app = app


# ------------------------------------------------------------- play at a table

PLAY_FATE = sheets.new_sheet("fate", "Cynere").replace(
    'high_concept = ""', 'high_concept = "Infamous Girl with Sword"'
)
"""Fight Great, Athletics Good, Physique Good, Notice Fair; refresh 3, 3 fate points."""
PLAY_LANDON = (
    sheets.new_sheet("fate", "Landon")
    .replace('high_concept = ""', 'high_concept = "Disowned Noble"')
    .replace('Notice = "Fair"', 'Notice = "Great"')
    .replace('Fight = "Great"', 'Fight = "Fair"')
)
"""Notice Great: first in a Notice order."""


class PlayRoom:
    """A Fate room: the GM, Ann (Cynere) and Bob (Landon), sheets attached."""

    def __init__(self, served: Any, system: str = "fate", sheets_: bool = True) -> None:
        self.served = served
        created = served.room("Docks", system=system)
        self.id = created["room"]
        self.gm = {"member": created["member"], "token": created["gm_token"]}
        self.ann = served.join(self.id, "Ann")
        self.bob = served.join(self.id, "Bob")
        if sheets_:
            self.attach(self.ann, PLAY_FATE)
            self.attach(self.bob, PLAY_LANDON)

    def attach(self, who: dict[str, Any], text: str) -> None:
        path = f"/api/rooms/{self.id}/members/{who['member']}/sheet"
        put = self.served.client.put(
            path, json={"text": text, "version": 0}, headers=bearer(who["token"])
        )
        assert put.status_code == 200, put.text

    def play(self, who: dict[str, Any], **body: Any) -> httpx.Response:
        answer: httpx.Response = self.served.client.post(
            f"/api/rooms/{self.id}/play", json=body, headers=bearer(who["token"])
        )
        return answer

    def ok(self, who: dict[str, Any], **body: Any) -> dict[str, Any]:
        answer = self.play(who, **body)
        assert answer.status_code == 201, answer.text
        found: dict[str, Any] = answer.json()
        return found

    def state(self, who: dict[str, Any] | None = None) -> dict[str, Any]:
        answer = self.served.get(f"/api/rooms/{self.id}/play", (who or self.gm)["token"])
        assert answer.status_code == 200, answer.text
        found: dict[str, Any] = answer.json()
        return found

    def sheet(self, who: dict[str, Any]) -> dict[str, Any]:
        path = f"/api/rooms/{self.id}/members/{who['member']}/sheet"
        answer = self.served.get(path, self.gm["token"])
        assert answer.status_code == 200, answer.text
        found: dict[str, Any] = answer.json()
        return found

    def points(self, who: dict[str, Any]) -> int:
        return int(self.sheet(who)["sheet"]["points"]["fate_points"])

    def roll(self, who: dict[str, Any], text: str, **extra: Any) -> dict[str, Any]:
        rolled = self.served.roll(self.id, who["token"], text, **extra)
        assert rolled.status_code == 201, rolled.text
        found: dict[str, Any] = rolled.json()
        return found

    def spend(self, who: dict[str, Any], seq: int, **body: Any) -> httpx.Response:
        answer: httpx.Response = self.served.client.post(
            f"/api/rooms/{self.id}/rolls/{seq}/spend",
            json={"point": "invoke", **body},
            headers=bearer(who["token"]),
        )
        return answer

    @staticmethod
    def headers(token: str) -> dict[str, str]:
        return bearer(token)

    @staticmethod
    def aspect(state: dict[str, Any], name: str) -> dict[str, Any]:
        """The one aspect called ``name`` of a state (``{"play": STATE}``)."""
        return _aspect_named(state, name)

    def verified(self, tmp_path: Path) -> str:
        """``fudgedice verify`` of the room's log once its seed is revealed."""
        revealed = self.served.client.post(
            f"/api/rooms/{self.id}/reveal", json={}, headers=bearer(self.gm["token"])
        )
        assert revealed.status_code == 200, revealed.text
        exported = self.served.get(f"/api/rooms/{self.id}/log", self.gm["token"])
        assert exported.status_code == 200, exported.text
        path = tmp_path / "room.log.json"
        path.write_text(exported.text)
        result = CliRunner().invoke(main, ["verify", str(path)])
        assert result.exit_code == 0, result.output
        return result.output


def _aspect_named(state: dict[str, Any], name: str) -> dict[str, Any]:
    found = [a for a in state["play"]["aspects"] if a["name"] == name]
    assert len(found) == 1, state["play"]["aspects"]
    aspect: dict[str, Any] = found[0]
    return aspect


@pytest.fixture
def play_table(tmp_path: Path, served_here: Callable[..., Any]) -> Iterator[Here]:
    """The app in this process on an SQLite file of the test's own."""
    db = connect(str(tmp_path / "play.sqlite3"))
    try:
        with served_here(db) as served:
            yield served
    finally:
        db.dispose()


@pytest.fixture
def play_room() -> type[PlayRoom]:
    """:class:`PlayRoom`: ``play_room(table)`` is a Fate room, sheets attached."""
    return PlayRoom
