"""How long the exact analysis of one shoe composition takes: the figure the floor depends on.

Goal (issue 2): a median of 5 ms or less per composition, in one process, so that every table of a
large casino can be analysed after every round. Run: ``python bench/bench_gamemath.py``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from baccarat.composition import Composition
from baccarat.gamemath import analyse
from baccarat.profiles import PROFILES


def depleted_shoes(count: int, seed: int = 20261121) -> list[Composition]:
    """8-deck shoes with 0 to 350 random cards already dealt (seeded)."""
    rng = random.Random(seed)
    shoes = []
    for _ in range(count):
        counts = [32] * 13
        for _ in range(rng.randint(0, 350)):
            live = [r for r, c in enumerate(counts) if c]
            counts[rng.choice(live)] -= 1
        shoes.append(Composition(tuple(counts)))
    return shoes


def main(count: int = 500) -> None:
    shoes = depleted_shoes(count)
    profiles = list(PROFILES.values())
    started = time.perf_counter()
    analyse(shoes[0], profiles[0])  # builds the enumeration tables once per process
    first = time.perf_counter() - started
    timings = []
    for i, shoe in enumerate(shoes):
        rules = profiles[i % len(profiles)]
        t = time.perf_counter()
        analyse(shoe, rules)
        timings.append((time.perf_counter() - t) * 1000)
    timings.sort()
    print(f"gamemath.analyse: {count} depleted 8-deck shoes, every bundled profile in turn")
    print(f"  first call (builds tables): {first * 1000:8.2f} ms")
    print(f"  median:                     {statistics.median(timings):8.3f} ms   (goal ≤ 5 ms)")
    print(f"  p95:                        {timings[int(0.95 * len(timings))]:8.3f} ms")
    print(f"  max:                        {timings[-1]:8.3f} ms")


if __name__ == "__main__":
    main()
