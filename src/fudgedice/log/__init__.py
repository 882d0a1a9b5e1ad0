"""Rolls anyone can check: the hash-chained log of docs/fairness.md.

* ``canonical``  the fixed forms: canonical JSON, an entry's hash, a
  placeholder's digest, the fields of an entry
* ``entries``    one roll from a room's stream, made into its entry
* ``verifier``   ``verify(log) -> Report``: the whole log checked offline
* ``document``   its parts checked for their shape first: seeds, size, fields
* ``report``     the report and its first failure
* ``session``    ``Session``: commit, roll, reveal, export, in memory
* ``storage``    session and log files, read with a bound, written atomically

The log knows nothing of where it is kept: a session file and a table's
database export the same document.
"""

from .canonical import FORMAT as FORMAT
from .canonical import VISIBILITIES as VISIBILITIES
from .canonical import Visibility as Visibility
from .entries import Logged as Logged
from .entries import roll_entry as roll_entry
from .report import Failure as Failure
from .report import Report as Report
from .session import Reveal as Reveal
from .session import Session as Session
from .verifier import verify as verify
