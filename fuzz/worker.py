"""A worker process: warms up, caps its memory, then runs cases until told to stop.

The pool's fork server preloads :mod:`fuzz.warm`, so fudgedice, NumPy, click and
matplotlib are imported and warmed up once, and every worker (and every replacement
for a killed one) starts from a fork of that.

What goes between the worker and the pool is in :mod:`fuzz.protocol`.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
import tempfile
import traceback
import warnings
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

os.environ.setdefault("MPLBACKEND", "Agg")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot  # imported here, once, for every worker
from click.testing import CliRunner

import fudgedice
from fudgedice.cli import main as cli_main

from . import limits
from .checks import Meter, run_case
from .protocol import Board, Result, WorkerConfig


def resolve(where: str) -> Any:
    module, _, attribute = where.partition(":")
    target: Any = importlib.import_module(module)
    for name in attribute.split(".") if attribute else ():
        target = getattr(target, name)
    return target


def warm_up(api: Any) -> None:
    """What a first call pays once (imports, font cache, parser tables), paid here."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api.roll("4dF+1 vs Good", seed=1).to_dict()
        api.odds("3d6!").to_dict()
        api.read("d6: 3D+1", "4 2 w6 w3")
        api.sample("3d6", 10, seed=1)
        with tempfile.TemporaryDirectory() as folder:
            chart = str(Path(folder) / "chart.png")
            CliRunner().invoke(cli_main, ["odds", "4dF", "--plot", chart])
            CliRunner().invoke(cli_main, ["roll", "3d6", "--json", "--seed", "1"])


def main(conn: Connection, board: Board, config: WorkerConfig) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the pool stops the workers
    api = resolve(config.api)
    if "fuzz.warm" not in sys.modules:  # not forked from a warmed-up fork server
        warm_up(fudgedice)
    # The project's tests turn warnings into errors; so does the fuzzer (a NumPy
    # overflow warning is a wrong total).
    warnings.simplefilter("error")
    limits.install()
    if config.memory_bytes:
        limits.cap_memory(config.memory_bytes)
    baseline = limits.vm_bytes()
    conn.send(("ready", os.getpid()))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        index, case = message

        def started(entry: str, index: int = index) -> None:
            board.post(index, entry)

        meter = Meter(started, cpu_seconds=config.cpu_seconds)
        result = Result(meter.calls, meter.problems, meter.skips)
        try:
            run_case(case, meter, api)
        except BaseException as error:  # a bug of the fuzzer: reported, never hidden
            if isinstance(error, KeyboardInterrupt | SystemExit):
                raise
            result.internal = "".join(traceback.format_exception(error))
            result.retire = True
        result.shown = meter.shown
        result.slowest = meter.slowest
        grown = limits.vm_bytes() - baseline > config.recycle_growth
        result.retire = result.retire or meter.recycle or grown
        try:
            conn.send(("done", index, result))
        except (OSError, EOFError):
            return
        if result.retire:
            return
