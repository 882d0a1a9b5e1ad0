"""One roll drawn from its room's stream (or read from the faces given) and
made into its record and its entry of the log: what the writer does for each
roll of a batch, in the transaction that holds the room (:mod:`.writer`)."""

from __future__ import annotations

from typing import Any

from ..errors import DiceError
from ..log import roll_entry
from . import rolling
from .held import HeldRoom
from .kept import RollRecord, RollRequest
from .problems import Problem


class FailedRoll(Problem):
    """A roll that failed once its dice were drawn: refused with its error, as
    a bad text is (400), and with its ``seq``, for it is kept all the same."""

    def __init__(self, record: RollRecord, error: DiceError) -> None:
        super().__init__(400, error.message, position=error.position, hint=error.hint)
        self.record = record

    def body(self) -> dict[str, Any]:
        return {**super().body(), "seq": self.record.seq}


def draw(room: HeldRoom, request: RollRequest, at: str) -> RollRecord | FailedRoll:
    """The room's next roll: drawn from its seed (or read from the faces given)
    and made into its entry of the log (``fudgedice.log.roll_entry``); a roll
    that failed once its dice were drawn is kept, as a :class:`FailedRoll`."""
    member = request.member
    seq = room.last_seq + 1
    text = rolling.log_text(request.text, request.system)
    try:
        logged = roll_entry(
            server_seed=room.seed,
            commitment=room.commitment,
            room=room.id,
            seq=seq,
            nonce=room.next_nonce(member.id),
            prev=room.last_hash,
            text=text,
            roller=member.name,
            visibility=request.visibility,
            client_seed=request.client_seed,
            member=member.id,
            stream=room.stream,
            at=at,
            read=request.faces,
            extra=None if request.label is None else {"label": request.label},
        )
    except DiceError as error:
        raise Problem.from_dice(rolling.as_typed(error, request.text, request.system)) from None
    nonce = None if request.faces is not None else room.next_nonce(member.id)
    opening = logged.opening
    fields = logged.entry if opening is None else opening["entry"]
    result = logged.roll.to_dict() if logged.roll is not None else failed_result(text, fields)
    record = RollRecord(
        room.id, seq, member.id, member.name, request.visibility, room.epoch, room.commitment,
        nonce, request.client_seed, request.text, request.label, request.faces,
        result, at, None if opening is None else opening["salt"], logged.hash,
        None, logged.entry, opening, None if logged.error is None else logged.error.message,
        request.via,
    )  # fmt: skip
    room.last_seq = seq
    room.last_hash = record.hash
    if nonce is not None:
        room.take_nonce(member.id)
    if logged.error is not None:
        return FailedRoll(record, rolling.as_typed(logged.error, request.text, request.system))
    return record


def failed_result(text: str, fields: dict[str, Any]) -> dict[str, Any]:
    """A failed roll's JSON: its text, the faces it drew, its error; no total."""
    faces = " ".join(str(face) for face in fields["faces"])
    return {
        "notation": text, "total": None, "verdict": None, "result": "failed",
        "dice": [], "tosses": fields["faces"], "failed": True, "error": fields["error"],
        "text": f"{text}: failed after drawing {faces or 'nothing'}: {fields['error']}",
    }  # fmt: skip
