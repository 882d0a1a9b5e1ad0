"""Making a roll, the request a table makes most: checked on the event loop
from what the process keeps in memory (who the token belongs to, which roll
texts are known to be good), then handed to the writer, which commits the rolls waiting
together (:mod:`.writer`). Nothing here waits for the database unless a token
or a roll text is new to the process.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool

from ..log.canonical import Visibility
from . import rolling, store
from .bodies import NewRoll
from .caches import Members, Texts
from .db import Database
from .drawing import FailedRoll
from .guards import RateLimit
from .kept import Member, RollRecord, RollRequest, Room
from .keys import key_of
from .problems import not_found, unauthorized, unprocessable
from .writer import Writer


def member_of(
    db: Database, room: str, authorization: str | None, token: str | None = None
) -> tuple[Room, Member]:
    """The room and the member of ``Authorization: Bearer TOKEN`` (or of
    ``token``, for a browser's event source), as :func:`store.authenticate` answers."""
    given = token
    if authorization is not None:
        scheme, _, given = authorization.partition(" ")
        if scheme.lower() != "bearer":
            raise unauthorized("the Authorization header is 'Bearer TOKEN'")
    return store.authenticate(db, room, given.strip() if given else None)


class Rolls:
    """The rolls of one process: its caches, its rate limit and its writer."""

    def __init__(
        self, db: Database, writer: Writer, limiter: RateLimit, addresses: RateLimit
    ) -> None:
        self.db, self.writer, self.limiter = db, writer, limiter
        self.addresses = addresses  # the rolls of each client address, all members together
        self.members, self.texts = Members(), Texts()
        self.texts.check("4dF", "fudge")  # builds the parser once, before requests race to

    async def member(self, room: str, authorization: str | None) -> tuple[Member, str]:
        """The member whose token this is and the room's system: from memory
        once seen, and refused exactly as :func:`member_of` refuses."""
        scheme, _, given = (authorization or "").partition(" ")
        wanted = None
        if authorization is not None and scheme.lower() == "bearer" and given.strip():
            wanted = store.token_hash(given.strip())
            seen = self.members.get(wanted)
            if seen is not None:
                if seen[0].room != room:
                    raise not_found()  # a token of another room: as store.authenticate says
                return seen
        found, me = await run_in_threadpool(member_of, self.db, room, authorization)
        if wanted is not None:
            self.members.put(wanted, me, found.system)
        return me, found.system

    async def make(
        self,
        room: str,
        body: NewRoll,
        authorization: str | None,
        address: str,
        idempotency: str | None = None,
    ) -> tuple[Member, RollRecord]:
        """Its roller and the roll, once committed; or the Problem that
        refuses it. A blind roll's roller is answered with its placeholder
        (:meth:`RollRecord.json_for`), even if it failed once drawn.
        ``idempotency``: the request's ``Idempotency-Key``, whose roll, if
        it made one already, is the answer (:mod:`.keys`)."""
        me, system = await self.member(room, authorization)
        return me, await self.make_as(me, system, body, address, idempotency=idempotency)

    async def make_as(
        self,
        me: Member,
        system: str,
        body: NewRoll,
        address: str,
        via: str = "",
        idempotency: str | None = None,
    ) -> RollRecord:
        """:meth:`make` for a member already known (a Discord user's, whose
        interaction was signed by Discord): the same checks, allowances and
        writer; ``address`` is the key of the address allowance, ``via``
        where the roll was asked (:attr:`RollRequest.via`)."""
        shown_as(body.visibility, me)
        label = (
            None if body.label is None else rolling.name(body.label, "a label", rolling.MAX_LABEL)
        )
        faces = rolling.faces(body.faces)
        seed = rolling.client_seed(body.client_seed)
        key = key_of(idempotency, "roll", body.text, body.visibility, label, seed, faces)
        self.take(me, address)
        heavy = self.texts.heavy(body.text, system)
        if heavy is None:  # new to the process: checked on a worker thread, so that a
            # bad text is refused (400, its column) before its room is held, and a
            # long one never stalls the event loop
            heavy = await run_in_threadpool(self.texts.check, body.text, system)
        request = RollRequest(
            me.room,
            me,
            body.text,
            system,
            body.visibility,
            label,
            seed,
            faces,
            heavy,
            via,
            key=key,
        )
        try:
            return await self.writer.roll(request)
        except FailedRoll as failed:
            if failed.record.visible_to(me):
                raise
            # a blind roll: that it failed, and why, would tell its roller of its dice
            return failed.record

    def take(self, me: Member, address: str, cost: int = 1) -> None:
        """One of ``me``'s allowance and of the client address's: a roll's,
        or anything else a member adds to the log as often (talk); ``cost``
        of each for a request that reads as many new roll texts (favourites)."""
        self.limiter.take(me.id, cost)
        self.addresses.take(f"rolls {address}", cost)


def shown_as(visibility: Visibility, me: Member) -> Visibility:
    """``visibility``, if ``me`` may hide a roll or a message so: only the GM
    keeps one secret (the GM's alone)."""
    if visibility == "secret" and not me.gm:
        raise unprocessable(
            "only the GM keeps a roll or a message secret",
            hint="players may choose 'gm' or 'self'",
        )
    return visibility
