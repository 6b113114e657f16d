"""Run every benchmark: ``make bench``."""

import runpy
from pathlib import Path

HERE = Path(__file__).resolve().parent

for script in ("bench_enumeration.py", "bench_gamemath.py"):
    print(f"== {script}")
    runpy.run_path(str(HERE / script), run_name="__main__")
    print()
