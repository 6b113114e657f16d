"""Time the exact coup distribution on depleted eight-deck shoes.

Run from the repository root: ``python bench/bench_enumeration.py``.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from baccarat.composition import Composition
from baccarat.enumeration import (
    coup_distribution,
    prepare,
    reference_coup_distribution,
)

SHOES = 500
MAX_REMOVED = 300
SEED = 20261121


def depleted_shoes(count: int, seed: int) -> list[Composition]:
    """Eight-deck shoes with 0 to 300 cards removed at random."""
    rng = random.Random(seed)
    full = Composition.of_decks(8)
    deck = [rank for rank, n in enumerate(full.counts) for _ in range(n)]
    shoes = []
    for _ in range(count):
        removed = rng.sample(deck, rng.randint(0, MAX_REMOVED))
        counts = list(full.counts)
        for rank in removed:
            counts[rank] -= 1
        shoes.append(Composition(tuple(counts)))
    return shoes


def reference_seconds(runs: int = 1) -> float:
    """The plain-Python reference on the benchmark's first shoe, the best of ``runs``: a
    measure of the cores' speed that touches no server, database or network."""
    shoe = depleted_shoes(1, SEED)[0]  # the first of ``depleted_shoes(SHOES, SEED)``
    best = math.inf
    for _ in range(runs):
        start = time.perf_counter()
        reference_coup_distribution(shoe)
        best = min(best, time.perf_counter() - start)
    return best


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def main() -> None:
    start = time.perf_counter()
    prepare()  # the first build in this process
    build = time.perf_counter() - start
    shoes = depleted_shoes(SHOES, SEED)
    for shoe in shoes[:20]:  # warm up
        coup_distribution(shoe)
    timings = []
    for shoe in shoes:
        start = time.perf_counter()
        coup_distribution(shoe)
        timings.append(time.perf_counter() - start)
    reference = reference_seconds()

    print(f"table build (one-off):  {milliseconds(build)}")
    print(f"coup_distribution on {SHOES} depleted 8-deck shoes (0-{MAX_REMOVED} cards removed):")
    print(f"  median {milliseconds(statistics.median(timings))}")
    print(f"  p95    {milliseconds(statistics.quantiles(timings, n=20)[-1])}")
    print(f"  max    {milliseconds(max(timings))}")
    print(f"plain-Python reference, one shoe: {milliseconds(reference)}")


if __name__ == "__main__":
    main()
