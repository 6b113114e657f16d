from tests.tablegame.conftest import dealer, floor, staff  # noqa: F401  (shared fixtures)
