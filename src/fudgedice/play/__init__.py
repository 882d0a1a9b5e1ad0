"""Play at the table (docs/contracts/rules.md section 7; docs/fate.md, "Playing a scene"):
aspects and their free invokes, fate points, compels, the GM's pool, scenes
and sessions, and a conflict's order. Pure: no server, no database, no I/O.

* ``state``       the room's play state (plain JSON) and what an action reads
* ``actions``     ``apply(state, action, table) -> Played``: one action
* ``invokes``     an invoke on a roll, a consequence taken in a hit, healed
* ``initiative``  the order of a conflict, as each system orders it
"""

from .actions import ACTIONS as ACTIONS
from .actions import advantage_free as advantage_free
from .actions import apply as apply
from .invokes import CONSEQUENCE as CONSEQUENCE
from .invokes import RECOVER as RECOVER
from .invokes import consequence as consequence
from .invokes import consequence_of as consequence_of
from .invokes import invoke as invoke
from .invokes import recover as recover
from .state import FATE_SYSTEMS as FATE_SYSTEMS
from .state import Character as Character
from .state import Played as Played
from .state import PlayError as PlayError
from .state import Rolled as Rolled
from .state import Table as Table
from .state import new_state as new_state
