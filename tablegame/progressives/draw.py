"""The must-hit meter's draws (004 §13(j)): its hidden hit value and the seat that wins it.

Both come from the operating system's cryptographic source (``secrets``): the hit value uniformly
to the cent in (reset, maximum], drawn at each reset; only a SHA-256 commitment of it (with a
random nonce) is recorded until it is won, when the win's event reveals both. Settlement
(``settlement``) and the floor's commands (``actions``) draw here, so that one source serves
both and a test replaces it in one place (``RANDOM``).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from decimal import Decimal

from baccarat.royal9 import MUST_HIT_CONFIGURATIONS, MustHit, must_hit_point, must_hit_winner
from tablegame.errors import ActionError
from tablegame.progressives.models import MustHitProgressive

#: The draw: the operating system's cryptographic source (tests may put a fixed one here).
RANDOM = secrets.SystemRandom()


def commitment(hit_value: Decimal, nonce: str) -> str:
    """What the reset records of a hidden hit value: SHA-256 of ``"<value>:<nonce>"``."""
    return hashlib.sha256(f"{hit_value}:{nonce}".encode()).hexdigest()


def draw_hit_value(config: MustHit) -> tuple[Decimal, str]:
    """A new hidden hit value in (reset, maximum], and the nonce that seals it."""
    return must_hit_point(config, RANDOM), secrets.token_hex(16)


def draw_winner(participants: Sequence[int]) -> int:
    """The seat that wins a must-hit meter, drawn among the round's Royal 9 seats."""
    return must_hit_winner(participants, RANDOM)


def configuration(number: int) -> MustHit:
    """Must-hit configuration 1, 2 or 3 of 004 §13(j) Table 1."""
    try:
        return MUST_HIT_CONFIGURATIONS[number]
    except KeyError:
        raise ActionError(
            f"Must-hit configuration {number} does not exist: choose 1, 2 or 3 (004 §13(j))."
        ) from None


def configuration_of(meter: MustHitProgressive) -> MustHit:
    """The configuration a meter runs on now (reset, maximum, increment rate)."""
    return MustHit(meter.reset, meter.maximum, meter.increment_rate)
