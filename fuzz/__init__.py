"""A grammar-driven fuzzer for fudgedice: ``make fuzz SECONDS=60 SEED=1``.

Modules, in the order a case travels:

* ``grammar``  roll texts drawn from the roll language (every system, modifier, option)
* ``mutate``   mutations of rolls and of the faces given to ``read``
* ``cases``    the cases (plain data) and ``CaseMaker``, which draws them from a seed
* ``pool``     worker processes, reused, with a CPU-time deadline per call
* ``worker``   a worker's loop; ``limits`` its CPU and memory budgets; ``protocol``
               what passes between pool and worker; ``warm`` the fork server's warm-up
* ``checks``   a case run in a worker: the calls, and the checks between their results
* ``faces``    the faces a player would write for a roll, for ``read``
* ``findings`` what went wrong, deduplicated; ``minimise`` shortens the input
* ``runner``   the run: counts, throughput, the report; ``__main__`` its command line
"""

from .runner import Options, Summary, run

__all__ = ["Options", "Summary", "run"]
