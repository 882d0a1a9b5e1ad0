"""What an operator watches: ``GET /metrics``, in Prometheus' text format
(``prometheus-client``).

Each app has a registry of its own (never the library's global one: a
process may build many apps, as the tests do). What the process already
keeps (the live feeds open, the database's pools, the refusals of each
allowance, the outbox's counts) is read when the metrics are scraped, by
:class:`Watched`, and costs nothing in between. What happens on the roll's
path is counted once a commit (:meth:`Metrics.settled`), in plain numbers on
the event loop (:class:`Buckets`): a roll costs a bucket's count and a sum.
No label names a room or a member: they would tell who plays where, and
each would be a series of its own.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import accumulate

from prometheus_client import CollectorRegistry, Counter, disable_created_metrics
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector
from sqlalchemy import event
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.pool import QueuePool

from .db import Database
from .guards import RateLimit
from .live import Hub
from .odds import OddsGate
from .outbox import Outbox

SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""The buckets of the histograms of time: a roll is answered in a few
milliseconds, a live event goes out within tens of them; seconds are trouble."""
BATCH = (1, 2, 4, 8, 16, 32, 64)
"""The buckets of rolls a commit: up to the writer's ``MAX_BATCH``."""
ADDRESS_KINDS = ("rolls", "rooms", "joins", "odds")
"""The kinds of request each client address has an allowance of (shown at 0
before any is refused, so that a rate over them reads from the start)."""


class Metrics(Collector):
    """The registry of one app, and what the roll's path and the live feed
    count. What the event loop counts (the rolls, their waits, the live lag)
    is kept in plain numbers, without a lock: every roll settled, every
    delivery and every scrape runs on the loop's thread."""

    def __init__(self) -> None:
        # no "_created" series beside each counter: twice the lines, read by nothing here
        disable_created_metrics()  # type: ignore[no-untyped-call]
        self.registry = CollectorRegistry()
        self.rolls = dict.fromkeys(("kept", "failed", "refused"), 0)
        self.roll_seconds = Buckets(
            "fudgedice_roll_seconds",
            "From a roll's arrival at the writer to its answer, once its batch is committed",
            SECONDS,
        )
        self.batch = Buckets(
            "fudgedice_roll_batch_size", "Rolls committed in one transaction", BATCH
        )
        self.live_lag = Buckets(
            "fudgedice_live_lag_seconds",
            "From the time a roll is kept (its 'at') to its rolls going out to the room's feeds",
            SECONDS,
        )
        errors = Counter(  # counted on whichever thread met the error: the library's lock
            "fudgedice_database_errors",
            "Errors the database's driver raised (disconnect: a connection lost or refused)",
            ["kind"],
            registry=self.registry,
        )
        self.disconnects, self.db_errors = errors.labels("disconnect"), errors.labels("error")
        self.registry.register(self)
        ProcessCollector(registry=self.registry)  # the process's CPU time, memory, open files

    def collect(self) -> Iterator[Metric]:
        rolls = CounterMetricFamily(
            "fudgedice_rolls",
            "Rolls asked for: kept, kept as failed once drawn, or refused",
            labels=["outcome"],
        )
        for outcome, count in self.rolls.items():
            rolls.add_metric([outcome], count)
        yield rolls
        yield self.roll_seconds.family()
        yield self.batch.family()
        yield self.live_lag.family()

    def settled(self, waited: Sequence[float], kept: int, failed: int) -> None:
        """One commit: the seconds each of its rolls waited for its answer,
        and how many were kept, failed once drawn included."""
        self.batch.observe(len(waited))
        self.rolls["kept"] += kept - failed
        self.rolls["failed"] += failed
        for seconds in waited:
            self.roll_seconds.observe(seconds)

    def refused(self) -> None:
        """A roll asked for was answered with an error, and not kept."""
        self.rolls["refused"] += 1

    def delivered(self, at: str) -> None:
        """Rolls went out to a room's feeds; ``at`` is the oldest one's time."""
        kept = datetime.fromisoformat(at)
        self.live_lag.observe(max(0.0, (datetime.now(kept.tzinfo) - kept).total_seconds()))

    def watch(self, held: Watched) -> None:
        """Count the database's errors and read ``held`` at each scrape."""
        for engine in held.db.reader, held.db.writer:
            if not event.contains(engine, "handle_error", self._error):
                event.listen(engine, "handle_error", self._error)
        self.registry.register(held)

    def forget(self, db: Database) -> None:
        """Stop counting ``db``'s errors (the app stopped; the database may outlive it)."""
        for engine in db.reader, db.writer:
            if event.contains(engine, "handle_error", self._error):
                event.remove(engine, "handle_error", self._error)

    def _error(self, context: ExceptionContext) -> None:
        (self.disconnects if context.is_disconnect else self.db_errors).inc()


class Buckets:
    """A histogram kept in plain numbers on the event loop (a tenth of the
    library's ``Histogram.observe``, which takes a lock for its sum and for
    its bucket), written out as Prometheus' histogram when scraped."""

    def __init__(self, name: str, documentation: str, bounds: Sequence[float]) -> None:
        self.name, self.documentation, self.bounds = name, documentation, tuple(bounds)
        self.counts = [0] * (len(self.bounds) + 1)  # the last: past every bound
        self.sum = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect_left(self.bounds, value)] += 1  # a bucket's bound is "<="
        self.sum += value

    def family(self) -> HistogramMetricFamily:
        bounds = [repr(float(bound)) for bound in self.bounds] + ["+Inf"]
        return HistogramMetricFamily(
            self.name,
            self.documentation,
            buckets=list(zip(bounds, accumulate(self.counts), strict=True)),
            sum_value=self.sum,
        )


@dataclass(eq=False)  # a registry keeps its collectors by identity
class Watched(Collector):
    """What the process keeps, read at each scrape."""

    db: Database
    hub: Hub
    member_limit: RateLimit
    addresses: RateLimit
    gate: OddsGate
    outbox: Outbox

    def collect(self) -> Iterator[Metric]:
        yield GaugeMetricFamily(
            "fudgedice_live_feeds", "Live feeds open in this process", value=self.hub.watching()
        )
        yield from _pools(self.db)
        limited = CounterMetricFamily(
            "fudgedice_rate_limited",
            "Requests refused (429) by an allowance: each member's, or each address's"
            " of one kind of request",
            labels=["limit"],
        )
        limited.add_metric(["member"], sum(self.member_limit.refusals().values()))
        by_kind = dict.fromkeys(ADDRESS_KINDS, 0) | self.addresses.refusals()
        for kind, count in by_kind.items():
            limited.add_metric([f"address_{kind}"], count)
        yield limited
        yield CounterMetricFamily(
            "fudgedice_odds_busy",
            "Measures of odds refused (503) while the gate was full",
            value=self.gate.busy,
        )
        yield from _outbox(self.outbox)


def _pools(db: Database) -> Iterator[Metric]:
    """Each engine's pool: connections checked out, and those it keeps."""
    out = GaugeMetricFamily(
        "fudgedice_database_connections",
        "Connections of a pool checked out (the writer's batches keep one for good)",
        labels=["pool"],
    )
    size = GaugeMetricFamily(
        "fudgedice_database_pool_size", "Connections a pool keeps open", labels=["pool"]
    )
    for name, engine in ("reader", db.reader), ("writer", db.writer):
        pool = engine.pool
        if isinstance(pool, QueuePool):
            out.add_metric([name], pool.checkedout())
            size.add_metric([name], pool.size())
    yield out
    yield size


def _outbox(outbox: Outbox) -> Iterator[Metric]:
    counts = outbox.counts
    sent = CounterMetricFamily(
        "fudgedice_outbox_deliveries",
        "Webhook and Discord deliveries: sent, tried again, given up, dropped unsent",
        labels=["outcome"],
    )
    for outcome in ("sent", "retried", "failed", "dropped"):
        sent.add_metric([outcome], getattr(counts, outcome))
    yield sent
    yield GaugeMetricFamily(
        "fudgedice_outbox_waiting", "Deliveries not yet sent", value=outbox.waiting()
    )


def token_digest(token: str) -> bytes:
    """What the process keeps of the metrics' token: its SHA-256."""
    return hashlib.sha256(token.encode()).digest()


def may_read(client: str | None, authorization: str | None, digest: bytes | None) -> int:
    """200 if the metrics may be read; else the status refusing them. With a
    token set, only its bearer reads them, wherever from (behind a proxy on
    the same machine every request comes from loopback); without one, only
    a client on this machine."""
    if digest is not None:
        scheme, _, given = (authorization or "").partition(" ")
        if scheme.lower() == "bearer" and hmac.compare_digest(token_digest(given.strip()), digest):
            return 200
        return 401
    return 200 if _loopback(client) else 403


def _loopback(client: str | None) -> bool:
    try:
        address = ipaddress.ip_address(client or "")
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback
