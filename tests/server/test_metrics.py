"""``GET /metrics`` scraped from real ``fudgedice serve`` processes on SQLite
and PostgreSQL: the rolls kept, failed and refused, the writer's histograms,
the live feeds open and their lag, the pools, the allowances' refusals, the
database's errors; who may read them (loopback, or the token's bearer)."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import Metric
from prometheus_client.parser import text_string_to_metric_families

from fudgedice.server.app import create_app
from fudgedice.server.db import connect
from fudgedice.server.metrics import Buckets, may_read, token_digest

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]

PROBE = "1/((4dF+4)/5-1)"
"""A roll that fails once drawn about two times in five (a division by zero):
kept all the same, as a failed roll."""
PROBES = 8


def scrape(url: str, **headers: str) -> Samples:
    answer = httpx.get(f"{url}/metrics", headers=headers, timeout=30)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples[name, frozenset(labels.items())]


def unique(prefix: str) -> str:
    """A database name no other test takes."""
    return f"{prefix}_{os.getpid()}_{uuid.uuid4().hex[:8]}"


def database(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if kind == "sqlite":
        return str(tmp_path / "table.sqlite3")
    created: str = request.getfixturevalue("postgres").create_database(unique("metrics"))
    return created


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_metrics_count_rolls_refusals_and_feeds(
    kind: str,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    start_server: Callable[..., Any],
    table_of: Callable[[Any], Any],
) -> None:
    server = start_server(
        database(kind, tmp_path, request), "--burst", str(PROBES + 1), "--rate", "0.01"
    )
    table = table_of(server)
    created = table.room("Watched")
    room, gm = created["room"], created["gm_token"]
    ann = table.join(room, "Ann")["token"]
    before = scrape(server.url)
    assert value(before, "fudgedice_rolls_total", outcome="kept") == 0
    assert value(before, "fudgedice_live_feeds") == 0
    with table.live(room, gm) as events:
        table.until(events, "ready")
        assert value(scrape(server.url), "fudgedice_live_feeds") == 1
        bad = table.roll(room, ann, "1/0")  # refused before any die: its allowance spent
        assert bad.status_code == 400 and "seq" not in bad.json()
        answers = [table.roll(room, ann, PROBE) for _ in range(PROBES)]
        limited = [table.roll(room, ann, "4dF") for _ in range(2)]
        failed = [answer.json()["seq"] for answer in answers if answer.status_code == 400]
        assert all(answer.status_code in (201, 400) for answer in answers)
        assert [answer.status_code for answer in limited] == [429, 429]
        last = 0
        while last < PROBES:  # every kept roll has gone out to the feed
            last = table.until(events, "roll")["seq"]
        during = scrape(server.url)
    after = scrape(server.url)
    assert value(during, "fudgedice_rolls_total", outcome="kept") == PROBES - len(failed)
    assert value(during, "fudgedice_rolls_total", outcome="failed") == len(failed)
    assert value(during, "fudgedice_rolls_total", outcome="refused") == 3
    assert value(during, "fudgedice_rate_limited_total", limit="member") == 2
    assert value(during, "fudgedice_rate_limited_total", limit="address_rolls") == 0
    assert value(during, "fudgedice_roll_seconds_count") == PROBES  # the kept and the failed
    assert value(during, "fudgedice_roll_seconds_sum") > 0
    assert value(during, "fudgedice_roll_batch_size_sum") == PROBES
    assert value(during, "fudgedice_live_feeds") == 1
    assert 1 <= value(during, "fudgedice_live_lag_seconds_count") <= PROBES
    assert value(during, "fudgedice_live_lag_seconds_bucket", le="+Inf") >= 1
    assert value(during, "fudgedice_database_errors_total", kind="error") == 0
    assert value(after, "fudgedice_odds_busy_total") == 0
    assert value(after, "fudgedice_outbox_deliveries_total", outcome="sent") == 0
    assert_pools(kind, after)
    assert room not in str(after) and "Ann" not in str(after)  # no room, no member named
    table.client.close()  # the feed's connection gone, the server notices
    assert_eventually_no_feed(server.url)


def assert_pools(kind: str, samples: Samples) -> None:
    """The pools as the process holds them once every request is answered."""
    for pool in ("reader", "writer"):
        size = value(samples, "fudgedice_database_pool_size", pool=pool)
        out = value(samples, "fudgedice_database_connections", pool=pool)
        assert size >= 1 and 0 <= out <= size
    # the writer's batches keep their connection for the process, on either
    # database; every other write gives its own back once answered
    writer = value(samples, "fudgedice_database_connections", pool="writer")
    assert writer == 1, kind


def assert_eventually_no_feed(url: str) -> None:
    for _ in range(300):
        if value(scrape(url), "fudgedice_live_feeds") == 0:
            return
        asyncio.run(asyncio.sleep(0.05))
    raise AssertionError("the closed feed was still counted")


def test_a_lost_postgresql_connection_is_counted(
    postgres: Any,
    start_server: Callable[..., Any],
    table_of: Callable[[Any], Any],
) -> None:
    name = unique("metrics_lost")
    server = start_server(postgres.create_database(name))
    table = table_of(server)
    created = table.room("Cut off")
    assert (
        scrape(server.url)["fudgedice_database_errors_total", frozenset({("kind", "disconnect")})]
        == 0
    )
    with psycopg.connect(postgres.url("postgres"), autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,)
        )
    # the writer's pool (which made the room) finds its connection dead at its
    # next checkout, counts it and takes another: the roll is kept all the same
    assert table.roll(created["room"], created["gm_token"], "4dF").status_code == 201
    assert value(scrape(server.url), "fudgedice_database_errors_total", kind="disconnect") >= 1


def test_only_the_tokens_bearer_reads_the_metrics_when_one_is_set(
    tmp_path: Path, start_server: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FUDGEDICE_METRICS_TOKEN", "watching-the-table-42")
    server = start_server(str(tmp_path / "t.sqlite3"))
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic x"}):
        refused = httpx.get(f"{server.url}/metrics", headers=headers, timeout=30)
        assert refused.status_code == 401  # loopback is not enough once a token is set
        assert "metrics token" in refused.json()["error"]
    samples = scrape(server.url, Authorization="Bearer watching-the-table-42")
    assert value(samples, "fudgedice_live_feeds") == 0
    assert "watching-the-table-42" not in server.output()


def test_the_metrics_are_refused_to_a_client_elsewhere(tmp_path: Path) -> None:
    app = create_app(connect(str(tmp_path / "t.sqlite3")))

    async def status(client: str) -> int:
        transport = httpx.ASGITransport(app=app, client=(client, 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://table") as http:
            answer = await http.get("/metrics")
            if answer.status_code != 200:
                assert answer.json()["error"].startswith("the metrics are read from")
            return answer.status_code

    got = {client: asyncio.run(status(client)) for client in CLIENTS}
    assert got == CLIENTS


CLIENTS = {
    "127.0.0.1": 200,
    "127.8.9.10": 200,
    "::1": 200,
    "::ffff:127.0.0.1": 200,
    "203.0.113.5": 403,
    "10.0.0.7": 403,
    "2001:db8::1": 403,
    "::ffff:203.0.113.5": 403,
    "testclient": 403,
}
"""Each client address and the status of its GET /metrics without a token."""


def test_who_may_read_the_metrics() -> None:
    digest = token_digest("s3cret")
    assert may_read("127.0.0.1", None, None) == 200
    assert may_read(None, None, None) == 403
    assert may_read("127.0.0.1", None, digest) == 401
    assert may_read("203.0.113.5", "Bearer s3cret", digest) == 200
    assert may_read("203.0.113.5", "bearer  s3cret ", digest) == 200
    assert may_read("127.0.0.1", "Bearer s3cre", digest) == 401
    assert may_read("127.0.0.1", "s3cret", digest) == 401


def test_a_database_error_in_the_process_is_counted(tmp_path: Path) -> None:
    db = connect(str(tmp_path / "t.sqlite3"))
    app = create_app(db)
    with db.read() as connection, pytest.raises(Exception, match="no such table"):
        connection.exec_driver_sql("SELECT * FROM no_such_table")
    text = asyncio.run(_metrics_text(app))
    assert 'fudgedice_database_errors_total{kind="error"} 1.0' in text
    db.dispose()


async def _metrics_text(app: Any) -> str:
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://table") as http:
        return (await http.get("/metrics")).text


def test_a_histogram_kept_on_the_loop_reads_as_prometheus_reads_one() -> None:
    kept = Buckets("lag_seconds", "a lag", (0.001, 0.01, 0.1))
    for seconds in (0.0005, 0.001, 0.002, 0.01, 0.05, 3.0):
        kept.observe(seconds)
    exposed = generate_latest(Registry(kept)).decode()
    (family,) = text_string_to_metric_families(exposed)
    samples = {(s.name, s.labels.get("le")): s.value for s in family.samples}
    assert family.type == "histogram"
    # a bound holds the values up to it, itself included; each bucket all below it
    assert samples["lag_seconds_bucket", "0.001"] == 2
    assert samples["lag_seconds_bucket", "0.01"] == 4
    assert samples["lag_seconds_bucket", "0.1"] == 5
    assert samples["lag_seconds_bucket", "+Inf"] == samples["lag_seconds_count", None] == 6
    assert samples["lag_seconds_sum", None] == pytest.approx(3.0635)


class Registry(CollectorRegistry):
    """A registry of one histogram."""

    def __init__(self, kept: Buckets) -> None:
        super().__init__()
        self.kept = kept

    def collect(self) -> Iterator[Metric]:
        yield self.kept.family()
