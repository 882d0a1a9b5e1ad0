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
import re
import secrets
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
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import uvicorn
from click.testing import CliRunner
from fastapi import FastAPI
from nacl.signing import SigningKey

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
        # random, not a port number: a port comes free again, and its name was taken
        db = pg.create_database(f"api_{secrets.token_hex(8)}")
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


# Discord: a local stand-in of Discord's API that records what the table sends
# it, and interactions signed as Discord signs them, with a key made per run.

APPLICATION = "555000111"
"""The Discord application's ID in the tests' interactions and follow-ups."""
GM_ROLE = "4004"
"""A Discord role the tests' servers are told is a GM's."""
RECEIVED_WITHIN = 30.0
"""Seconds a test waits for a follow-up to arrive before it fails."""
SEAT = re.compile(r"/r/([A-Za-z0-9_-]+)#token=([A-Za-z0-9_-]+)")
"""A seat's link in a message: the room and the member's token."""


@dataclass
class Sent:
    """One request the table sent to Discord's API."""

    method: str
    path: str
    body: dict[str, Any]
    files: dict[str, bytes] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return json.dumps(self.body, ensure_ascii=False)


class Receiver:
    """Discord's API on 127.0.0.1: every request recorded, each answered 200."""

    def __init__(self) -> None:
        self.sent: list[Sent] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def _record(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                kind = self.headers.get("content-type", "")
                body, files = _parsed(raw, kind)
                with receiver.lock:
                    receiver.sent.append(Sent(self.command, self.path, body, files))
                answer = b'{"id": "1"}'
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            do_POST = do_PATCH = _record

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def to(self, token: str) -> list[Sent]:
        """What was sent for the interaction of ``token``."""
        with self.lock:
            return [each for each in self.sent if f"/{token}" in each.path]

    def wait(self, token: str, check: Callable[[Sent], bool]) -> Sent:
        deadline = time.monotonic() + RECEIVED_WITHIN
        while time.monotonic() < deadline:
            for each in self.to(token):
                if check(each):
                    return each
            time.sleep(0.05)
        raise AssertionError(f"nothing for the interaction within {RECEIVED_WITHIN} s")

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _parsed(raw: bytes, kind: str) -> tuple[dict[str, Any], dict[str, bytes]]:
    if not kind.startswith("multipart/"):
        return json.loads(raw or b"{}"), {}
    message = BytesParser(policy=HTTP).parsebytes(
        b"content-type: " + kind.encode() + b"\r\n\r\n" + raw
    )
    body: dict[str, Any] = {}
    files: dict[str, bytes] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        content = part.get_payload(decode=True)
        assert isinstance(content, bytes)
        if name == "payload_json":
            body = json.loads(content)
        else:
            files[str(name)] = content
    return body, files


def interaction(
    name: str,
    *,
    channel: str = "1001",
    user: str = "2001",
    username: str = "ann",
    guild: str | None = "3001",
    roles: tuple[str, ...] = (),
    kind: int = 2,
    **options: Any,
) -> dict[str, Any]:
    """A slash command as Discord sends it (the fields the table reads and a few more)."""
    who = {"id": user, "username": username, "global_name": username.title()}
    body: dict[str, Any] = {
        "id": str(secrets.randbelow(10**18)), "type": kind, "application_id": APPLICATION,
        "token": "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(24), "version": 1,
        "channel_id": channel, "channel": {"id": channel, "name": "fate-night", "type": 0},
        "data": {"id": "9", "name": name, "type": 1, "options": [
            {"name": key, "type": 5 if isinstance(value, bool) else 3, "value": value}
            for key, value in options.items()
        ]},
    }  # fmt: skip
    if guild is None:
        body["user"] = who
    else:
        body.update(guild_id=guild, member={"user": who, "roles": list(roles), "nick": None})
    return body


@dataclass
class Discord:
    """Signs interactions with ``key`` and posts them to one table."""

    url: str
    key: SigningKey
    receiver: Receiver
    client: httpx.Client = field(init=False)
    server: Server | None = None
    """The server, when the test started it (:func:`discord_start`)."""

    def __post_init__(self) -> None:
        self.client = httpx.Client(base_url=self.url, timeout=30)

    def post(
        self,
        body: dict[str, Any] | bytes,
        *,
        key: SigningKey | None = None,
        at: float | None = None,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        stamp = str(int(time.time() if at is None else at))
        signature = (key or self.key).sign(stamp.encode() + raw).signature.hex()
        sent = {"X-Signature-Ed25519": signature, "X-Signature-Timestamp": stamp,
                "content-type": "application/json"}  # fmt: skip
        return self.client.post("/discord/interactions", content=raw, headers=headers or sent)

    def command(self, name: str, **given: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """The interaction sent and its answer (200), the deferred one's edit
        waited for: (interaction, {"type", "data", "edit"?})."""
        body = interaction(name, **given)
        answer = self.post(body)
        assert answer.status_code == 200, answer.text
        replied: dict[str, Any] = answer.json()
        assert replied["type"] in (4, 5), replied
        if replied["type"] == 5:
            edit = self.receiver.wait(body["token"], lambda sent: sent.method == "PATCH")
            assert edit.path == f"/webhooks/{APPLICATION}/{body['token']}/messages/@original"
            replied["edit"] = edit
        return body, replied

    def seat(self, **given: Any) -> tuple[str, str, dict[str, Any]]:
        """The room and the caller's token, from /table's answer (and the answer)."""
        _, replied = self.command("table", **given)
        assert replied["type"] == 4 and self.ephemeral(replied), replied
        found = SEAT.search(self.text(replied))
        assert found is not None, replied
        return found.group(1), found.group(2), replied

    interaction = staticmethod(interaction)

    @staticmethod
    def text(replied: dict[str, Any]) -> str:
        """An answer's message (or its deferred edit's) as text, to look into."""
        if "edit" in replied:
            sent: Sent = replied["edit"]
            return sent.text
        return json.dumps(replied["data"], ensure_ascii=False)

    @staticmethod
    def ephemeral(replied: dict[str, Any]) -> bool:
        """Shown to its caller alone (Discord's flag 64)."""
        return bool(replied["data"].get("flags", 0) & 64)

    def close(self) -> None:
        self.client.close()


def discord_options(receiver: Receiver, key: SigningKey, *limits: str) -> tuple[str, ...]:
    """``fudgedice serve``'s options for a Discord application of ``key``,
    its API the local ``receiver``."""
    return (
        *limits, "--discord-public-key", key.verify_key.encode().hex(),
        "--discord-application-id", APPLICATION, "--discord-gm-role", GM_ROLE,
        "--discord-api", receiver.url,
    )  # fmt: skip


@pytest.fixture(scope="session")
def discord_key() -> SigningKey:
    """The Discord application's signing key, made for this run."""
    return SigningKey.generate()


@pytest.fixture(scope="session")
def discord_receiver() -> Iterator[Receiver]:
    """Discord's API on 127.0.0.1 (each interaction's follow-ups apart, by its token)."""
    receiver = Receiver()
    try:
        yield receiver
    finally:
        receiver.stop()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def discord_served(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    discord_key: SigningKey,
    discord_receiver: Receiver,
) -> Iterator[Discord]:
    """One server for a module, on each database, serving Discord's commands."""
    if request.param == "sqlite":
        db = str(tmp_path_factory.mktemp("discord") / "table.sqlite3")
    else:
        pg: Postgres = request.getfixturevalue("postgres")
        db = pg.create_database(f"discord_{os.getpid()}_{free_port()}")
    server = Server(db, discord_options(discord_receiver, discord_key, *NO_LIMITS)).start()
    client = Discord(server.url, discord_key, discord_receiver, server)
    try:
        yield client
    finally:
        client.close()
        server.stop()


@pytest.fixture
def discord_start(
    start_server: Callable[..., Server], discord_key: SigningKey, discord_receiver: Receiver
) -> Iterator[Callable[..., Discord]]:
    """Start a server serving Discord's commands on ``db`` with ``limits``
    (:func:`start_server`'s options; none: :data:`NO_LIMITS`), and its
    signing client (closed after the test)."""
    clients: list[Discord] = []

    def start(db: str, *limits: str) -> Discord:
        options = discord_options(discord_receiver, discord_key, *(limits or NO_LIMITS))
        server = start_server(db, *options)
        clients.append(Discord(server.url, discord_key, discord_receiver, server))
        return clients[-1]

    yield start
    for client in clients:
        client.close()
