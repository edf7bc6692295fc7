"""Python's cyclic garbage collector, set for a served process.

A command allocates a few hundred container objects (the request, its decoded body, the events,
the game it leaves, the response), nearly all freed by reference counting before the next one.
With CPython's default threshold of 700 allocations the collector ran a young collection every
few commands, and every tenth of those a middle one; the objects that outlive a command (the
cached games, a thousand by default) made full collections frequent too, each walking every
object the process holds, the framework's included: about 140 ms each on the benchmark's
machine, on the event loop, for nothing, since Herald's records make no reference cycles worth
collecting early. bench/bench_cluster.py, one process: 22% less CPU per command with
:func:`settle` than without (docs/DECISIONS.md, "Scale-out").

- ``gc.freeze()`` once the app has started: what start-up built (modules, the app, its routes
  and OpenAPI document, the store) lives as long as the process, so no collection walks it again.
- A young collection every :data:`YOUNG_THRESHOLD` allocations instead of 700: unreachable
  cycles are still collected, a few thousand allocations later.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG_THRESHOLD = 10_000  # net container allocations between two young collections (CPython: 700)


@contextmanager
def settled() -> Iterator[None]:
    """While the block runs: start-up's objects frozen, young collections
    :data:`YOUNG_THRESHOLD` allocations apart. The collector is as it was after it."""
    before = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
