"""Signed checkpoints of the record, kept outside the database (format version 2).

The triggers and the application's database role keep the application from changing the record,
but not the tables' owner or a database superuser: they could rewrite a chain and recompute every
hash with :func:`casino.record.event_hash`, and :func:`casino.record.verify_chain` would find it
intact. So a checkpoint, signed with Ed25519 by a private key the database never holds
(``RECORD_SIGNING_KEY_FILE``), is appended to a file in ``RECORD_CHECKPOINT_DIR``, the place
surveillance keeps it: by the Celery beat task ``casino.tasks.checkpoint_record`` every
``RECORD_CHECKPOINT_SECONDS`` (60 by default), and by ``manage.py checkpoint_record``.

What a checkpoint covers. Checkpoint N (one line, :func:`write_checkpoints`) signs

- the head (last event's number and hash) of each chain that moved since the day's last
  checkpoint, and of every chain with events in the day's first one, so each day's file names
  every head;
- ``previous``: the SHA-256 of checkpoint N-1's line as written. The checkpoints are a chain of
  their own across files and days, so checkpoint N vouches for every head before it too.

A checkpoint is written on every run, whether a head moved or not, so the newest is never much
older than the beat interval.

What ``verify_record`` finds with them (:func:`read_checkpoints`, :func:`check_against_checkpoints`,
:func:`tail`):

- a chain rewritten (every hash recomputed) or cut short up to its last checkpoint: a
  checkpointed event missing or with another hash;
- a line forged, unreadable or signed with another key;
- a checkpoint removed (a line, a file, the whole directory): a number skipped, a line whose
  ``previous`` is not the line before it, more than ``RECORD_CHECKPOINT_GRACE`` between two
  checkpoints or since the last one;
- the tail: a chain's events after its last checkpoint are "not yet covered", reported with
  their count, and an error once one is older than ``RECORD_CHECKPOINT_GRACE``.

An emptied directory is not begun again silently: while the record holds an event older than the
grace, :func:`write_checkpoints` refuses to write checkpoint 1 (the beat task fails and
``verify_record`` reports every event no checkpoint covers) until someone who holds the key runs
``checkpoint_record --start REASON``, which signs the reason into checkpoint 1. What is left
uncovered: events cut, together with the checkpoints after them, within one grace, and whatever
the holder of the signing key signs.

The day's close covers its tail: after its close event it calls
``transaction.on_commit(casino.tasks.checkpoint_record.delay)``, so the worker that holds the key
checkpoints the day's last events as soon as the close commits.

Files: ``checkpoints-YYYY-MM-DD.jsonl`` (UTC day of the checkpoint), appended to and never
rewritten, one writer at a time (a lock file in the directory). A line of version 2 holds
``version`` (2), ``number`` (1, 2, …), ``previous`` (hex, or null in checkpoint 1), ``at``
(UTC, ISO 8601), ``key`` (the signing key's id), ``heads`` (objects with ``chain``, ``scope``,
``label``, ``sequence``, ``hash``), ``start`` (only in a checkpoint 1 begun by hand: why), and
``signature``: base64 of the Ed25519 signature of ``SIGNED_CONTEXT`` and the line's other fields
as canonical JSON. Lines of version 1, written before (one chain's head a line, no ``version``,
``number`` or ``previous``), are still read: their heads are checked, and ``verify_record``
says how many there are, since a removed one would not show.

Keys: in DEBUG a key is made under ``var/`` on first use (``RECORD_SIGNING_KEY_GENERATE``);
otherwise ``RECORD_SIGNING_KEY_FILE`` must name a PEM Ed25519 private key. A verifier that should
not hold the private key reads the public one from ``RECORD_VERIFY_KEY_FILE``
(``manage.py checkpoint_record --public-key`` prints it).
"""

from __future__ import annotations

import base64
import binascii
import datetime
import fcntl
import hashlib
import json
import os
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db.models import Count, Min, OuterRef, Subquery
from django.utils import timezone

from casino.models import Chain, Event

FILE_PREFIX = "checkpoints-"
FILE_SUFFIX = ".jsonl"
#: Held while a checkpoint is written: one writer at a time, across processes.
LOCK_FILE = ".checkpoints.lock"
VERSION = 2
#: Prepended to what is signed, so a checkpoint signature is good for nothing else.
SIGNED_CONTEXT = b"baccarat-record-checkpoint/2\n"
#: Version 1: one chain's head a line, these fields signed.
SIGNED_CONTEXT_V1 = b"baccarat-record-checkpoint/1\n"
SIGNED_FIELDS_V1 = ("chain", "scope", "label", "sequence", "hash", "at", "key")
#: Checkpointed events are looked up this many at a time.
LOOKUP_BATCH = 1000


class CheckpointRefused(Exception):
    """A checkpoint was not written, for the reason given in plain words."""


@dataclass(frozen=True)
class Checkpoint:
    """One chain's head as signed at a moment, and where the line is."""

    chain_id: int
    scope: str
    label: str
    sequence: int
    hash: str
    at: str
    where: str
    """``file line N``, for reports."""


@dataclass(frozen=True)
class Mark:
    """One checkpoint of version 2 as read: its number, time, place and line's hash."""

    number: int
    previous: str | None
    """The hash of the line it names as the checkpoint before it."""
    at: datetime.datetime
    where: str
    digest: str
    """The SHA-256 of its own line, which the next checkpoint names."""


@dataclass
class CheckpointLog:
    """Every checkpoint line of the directory, read and checked."""

    directory: Path
    files: int = 0
    lines: int = 0
    checkpoints: int = 0
    """Lines of version 2 whose signature verified."""
    old_format: int = 0
    """Lines of version 1 whose signature verified."""
    first: Mark | None = None
    last: Mark | None = None
    by_chain: dict[int, dict[int, Checkpoint]] = field(default_factory=dict)
    """Per chain id, its checkpoints by event number."""
    problems: list[str] = field(default_factory=list)
    """What is wrong: lines forged, unreadable or contradicting another, checkpoints missing."""
    notes: list[str] = field(default_factory=list)
    """What a reader should know but is not wrong: old-format lines, a start by hand."""


@dataclass(frozen=True)
class Written:
    """What :func:`write_checkpoints` did."""

    path: Path
    number: int
    """The checkpoint's number."""
    written: int
    """Chains whose head was written."""
    unchanged: int
    """Chains whose head had not moved since their last checkpoint of the day."""


@dataclass(frozen=True)
class Tail:
    """A chain's events after its last checkpoint: not yet covered."""

    count: int
    oldest: datetime.datetime | None
    """When the first of them was recorded."""

    def overdue(self, now: datetime.datetime) -> bool:
        """True when one of them is older than ``RECORD_CHECKPOINT_GRACE``."""
        return self.oldest is not None and now - self.oldest > grace()


def grace() -> datetime.timedelta:
    """How long an event may go without a checkpoint, and checkpoints without another."""
    return datetime.timedelta(seconds=settings.RECORD_CHECKPOINT_GRACE)


def signing_key() -> Ed25519PrivateKey:
    """The private key that signs checkpoints; made on first use when allowed (DEBUG)."""
    name = settings.RECORD_SIGNING_KEY_FILE
    if not name:
        raise ImproperlyConfigured(
            "RECORD_SIGNING_KEY_FILE must name the record's signing key (a PEM Ed25519 private "
            "key kept away from the database) when DEBUG is false."
        )
    path = Path(name)
    try:
        pem = path.read_bytes()
    except FileNotFoundError:
        if not settings.RECORD_SIGNING_KEY_GENERATE:
            raise ImproperlyConfigured(
                f"There is no signing key at {path} (RECORD_SIGNING_KEY_FILE); make one with "
                "`openssl genpkey -algorithm ed25519 -out FILE`."
            ) from None
        return _generate(path)
    key = serialization.load_pem_private_key(pem, password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ImproperlyConfigured(f"{path} is not an Ed25519 private key")
    return key


def verify_key() -> Ed25519PublicKey | None:
    """The public key that checks checkpoints: ``RECORD_VERIFY_KEY_FILE``, else the signing
    key's; None when neither exists yet (nothing was ever signed here)."""
    if settings.RECORD_VERIFY_KEY_FILE:
        key = serialization.load_pem_public_key(Path(settings.RECORD_VERIFY_KEY_FILE).read_bytes())
        if not isinstance(key, Ed25519PublicKey):
            raise ImproperlyConfigured(
                f"{settings.RECORD_VERIFY_KEY_FILE} is not an Ed25519 public key"
            )
        return key
    if settings.RECORD_SIGNING_KEY_FILE and Path(settings.RECORD_SIGNING_KEY_FILE).exists():
        return signing_key().public_key()
    return None


def public_key_pem(key: Ed25519PublicKey) -> str:
    return key.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode("ascii")


def key_id(key: Ed25519PublicKey) -> str:
    """A short name for a public key: the start of the SHA-256 of its raw bytes."""
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def checkpoint_directory() -> Path:
    return Path(settings.RECORD_CHECKPOINT_DIR)


def write_checkpoints(now: datetime.datetime | None = None, *, start: str | None = None) -> Written:
    """Append the next signed checkpoint: the previous one's hash, and the head of each chain
    that moved since its last checkpoint today (every head in the day's first).

    ``start`` (why, in words) begins the checkpoints at 1 in a directory that holds none
    although the record holds events older than the grace; without it that is refused
    (:class:`CheckpointRefused`), since it is what an emptied directory looks like.
    """
    if start is not None and not start.strip():
        raise CheckpointRefused("Say why the checkpoints begin again: --start needs a reason.")
    key = signing_key()
    kid = key_id(key.public_key())
    directory = checkpoint_directory()
    directory.mkdir(parents=True, exist_ok=True)
    with (directory / LOCK_FILE).open("a") as lock:
        # One writer at a time (two beat runs, the close, a run by hand): the last checkpoint is
        # read, and the next appended, under one lock for the whole directory, so no two
        # checkpoints take the same number, even across midnight.
        fcntl.flock(lock, fcntl.LOCK_EX)
        at = (now or timezone.now()).astimezone(datetime.UTC)
        path = directory / f"{FILE_PREFIX}{at:%Y-%m-%d}{FILE_SUFFIX}"
        last, last_where, old_seen = _last_checkpoint(directory)
        if last is None:
            _check_beginning(directory, at, start=start, old_seen=old_seen)
        elif start is not None:
            raise CheckpointRefused(
                f"The checkpoints go on from checkpoint {last[0]} ({last_where}); --start is "
                "only for a directory that holds none."
            )
        today = _heads_in(path)
        heads = []
        unchanged = 0
        for chain_id, scope, label, sequence, digest in _heads():
            if today.get(chain_id) == (sequence, digest):
                unchanged += 1
                continue
            heads.append(
                {
                    "chain": chain_id,
                    "scope": scope,
                    "label": label,
                    "sequence": sequence,
                    "hash": digest,
                }
            )
        number = last[0] + 1 if last else 1
        body: dict[str, Any] = {
            "version": VERSION,
            "number": number,
            "previous": last[1] if last else None,
            "at": at.isoformat(timespec="microseconds"),
            "key": kid,
            "heads": heads,
        }
        if last is None and start is not None:
            body["start"] = start.strip()
        signature = base64.b64encode(key.sign(_signed_bytes(body))).decode("ascii")
        _append(path, _line({**body, "signature": signature}))
    return Written(path=path, number=number, written=len(heads), unchanged=unchanged)


def read_checkpoints(
    public_key: Ed25519PublicKey | None = None, *, now: datetime.datetime | None = None
) -> CheckpointLog:
    """Every line of every checkpoint file, in order, each signature checked with
    ``public_key`` (by default :func:`verify_key`), and the checkpoints checked as a chain:
    numbered without a gap, each naming the one before, none more than the grace after the one
    before or before ``now``."""
    directory = checkpoint_directory()
    log = CheckpointLog(directory=directory)
    paths = sorted(directory.glob(f"{FILE_PREFIX}*{FILE_SUFFIX}")) if directory.is_dir() else []
    if not paths:
        return log
    reader = _Reader(log, public_key or verify_key())
    for path in paths:
        log.files += 1
        with path.open("rb") as file:
            for number, raw in enumerate(file, start=1):
                reader.read(raw.rstrip(b"\n"), f"{path.name} line {number}")
    reader.finish(now or timezone.now())
    return log


def check_against_checkpoints(
    chain_id: int, checkpoints: dict[int, Checkpoint]
) -> tuple[Checkpoint | None, str]:
    """The chain's first checkpoint whose event is missing or has another hash, and why; or
    None and the last event checkpointed, in words."""
    stored: dict[int, str] = {}
    sequences = sorted(checkpoints)
    for start in range(0, len(sequences), LOOKUP_BATCH):
        batch = sequences[start : start + LOOKUP_BATCH]
        stored.update(
            Event.objects.filter(chain_id=chain_id, sequence__in=batch).values_list(
                "sequence", "hash"
            )
        )
    for sequence in sequences:
        checkpoint = checkpoints[sequence]
        if sequence not in stored:
            return checkpoint, (
                f"event {sequence} is missing, checkpointed at {checkpoint.at} ({checkpoint.where})"
            )
        if stored[sequence] != checkpoint.hash:
            return checkpoint, (
                f"event {sequence} is not the one checkpointed at {checkpoint.at}: its hash "
                f"differs ({checkpoint.where})"
            )
    return None, f"checkpointed up to event {sequences[-1]}" if sequences else ""


def tail(chain_id: int, checkpoints: Mapping[int, Checkpoint]) -> Tail:
    """The chain's events after the last one its checkpoints name."""
    found = Event.objects.filter(
        chain_id=chain_id, sequence__gt=max(checkpoints, default=0)
    ).aggregate(count=Count("pk"), oldest=Min("created_at"))
    return Tail(count=found["count"], oldest=found["oldest"])


def span(length: datetime.timedelta) -> str:
    """A length of time in words: "40 s", "6 min", "2 h 5 min", "3 days"."""
    seconds = max(0, int(length.total_seconds()))
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 2 * 3600:
        return f"{seconds // 60} min"
    if seconds < 2 * 86400:
        return f"{seconds // 3600} h {seconds % 3600 // 60} min"
    return f"{seconds // 86400} days"


def when(moment: datetime.datetime) -> str:
    return f"{moment.astimezone(datetime.UTC):%Y-%m-%d %H:%M:%S} UTC"


class _Reader:
    """Reads lines in order into a :class:`CheckpointLog`, checking each against the last."""

    def __init__(self, log: CheckpointLog, public_key: Ed25519PublicKey | None) -> None:
        self.log = log
        self.public_key = public_key
        self.kid = key_id(public_key) if public_key is not None else None
        self.failed = 0
        """Lines that failed since the last good checkpoint."""

    def read(self, raw: bytes, where: str) -> None:
        if not raw.strip():
            return
        self.log.lines += 1
        problems = self._read(raw, where)
        self.log.problems.extend(f"{where}: {problem}" for problem in problems)

    def finish(self, now: datetime.datetime) -> None:
        log = self.log
        last = log.last
        if last is not None and now - last.at > grace():
            log.problems.append(
                f"the last checkpoint, {last.number} at {when(last.at)} ({last.where}), is "
                f"{span(now - last.at)} old, more than RECORD_CHECKPOINT_GRACE "
                f"({span(grace())}): checkpoints after it were removed, or none has been "
                "written since (is the beat running?)"
            )
        if log.old_format:
            lines = "line" if log.old_format == 1 else "lines"
            log.notes.append(
                f"Checkpoints: {log.old_format} {lines} in the old format (version 1: one "
                "chain's head a line, neither numbered nor chained): their heads are checked, "
                "but a removed one would not show."
            )

    def _read(self, raw: bytes, where: str) -> list[str]:
        try:
            entry = json.loads(raw)
        except ValueError:
            entry = None
        if not isinstance(entry, dict):
            self.failed += 1
            return ["not a checkpoint line"]
        if "version" not in entry:
            problem = self._read_v1(entry, where)
            return [problem] if problem else []
        if entry["version"] != VERSION:
            self.failed += 1
            return [f"a checkpoint of version {entry['version']!r}, which this program cannot read"]
        try:
            mark, heads, signature = _parse(entry, raw, where)
        except (ValueError, KeyError, TypeError, binascii.Error):
            self.failed += 1
            return ["not a checkpoint line"]
        problem = self._check_signature(entry["key"], signature, _signed_bytes(entry))
        if problem:
            self.failed += 1
            return [problem]
        problems = self._follow(mark)
        for head in heads:
            contradiction = self._add(head)
            if contradiction:
                problems.append(contradiction)
        if mark.number == 1 and "start" in entry:
            self.log.notes.append(
                f"{where}: checkpoint 1, at {when(mark.at)}, began the checkpoints again by hand: "
                f"{entry['start']!r}; what was recorded before it was not covered then."
            )
        log = self.log
        log.checkpoints += 1
        log.first = log.first or mark
        log.last = mark
        self.failed = 0
        return problems

    def _follow(self, mark: Mark) -> list[str]:
        """What is wrong with ``mark`` as the checkpoint after the last good one."""
        last = self.log.last
        this = f"checkpoint {mark.number}"
        if last is None:
            if mark.number - 1 - self.failed <= 0:
                return []
            return [f"{_numbers(1, mark.number - 1)} missing: this line, {this}, is the first here"]
        if mark.number <= last.number:
            return [
                f"this line, {this}, comes after checkpoint {last.number} ({last.where}): the "
                "checkpoints were begun again, or lines moved"
            ]
        problems = []
        missing = mark.number - last.number - 1 - self.failed
        if missing > 0 and not self.failed:
            problems.append(
                f"{_numbers(last.number + 1, mark.number - 1)} missing: this line, {this}, "
                f"follows checkpoint {last.number} ({last.where})"
            )
        elif missing > 0:
            problems.append(
                f"{missing} checkpoints are missing between checkpoint {last.number} "
                f"({last.where}) and this line, {this}, besides {self.failed} lines that failed"
            )
        elif not self.failed and mark.previous != last.digest:
            problems.append(
                f"this line, {this}, does not follow checkpoint {last.number} ({last.where}): "
                "it names another line as the one before it"
            )
        if mark.at < last.at:
            problems.append(
                f"this line, {this}, is dated {when(mark.at)}, before checkpoint "
                f"{last.number} ({when(last.at)})"
            )
        elif mark.at - last.at > grace():
            problems.append(
                f"no checkpoint for {span(mark.at - last.at)} before this line, {this}, since "
                f"checkpoint {last.number} ({last.where}), more than RECORD_CHECKPOINT_GRACE "
                f"({span(grace())}): checkpoints were removed, or none was written then (the "
                "beat stopped)"
            )
        return problems

    def _read_v1(self, entry: dict[str, Any], where: str) -> str | None:
        try:
            body = {name: entry[name] for name in SIGNED_FIELDS_V1}
            signature = base64.b64decode(entry["signature"], validate=True)
            head = Checkpoint(
                chain_id=int(body["chain"]),
                scope=str(body["scope"]),
                label=str(body["label"]),
                sequence=int(body["sequence"]),
                hash=str(body["hash"]),
                at=str(body["at"]),
                where=where,
            )
        except (ValueError, KeyError, TypeError, binascii.Error):
            return "not a checkpoint line"
        problem = self._check_signature(body["key"], signature, _signed_bytes_v1(body))
        if problem:
            return problem
        self.log.old_format += 1
        return self._add(head)

    def _check_signature(self, kid: object, signature: bytes, signed: bytes) -> str | None:
        if self.public_key is None:
            return "cannot be checked: no verify key (set RECORD_VERIFY_KEY_FILE)"
        if kid != self.kid:
            return f"signed with another key ({kid}, not {self.kid})"
        try:
            self.public_key.verify(signature, signed)
        except InvalidSignature:
            return "FORGED: its signature does not verify"
        return None

    def _add(self, head: Checkpoint) -> str | None:
        """Add a signed head; or say which earlier one names another event at its place."""
        chain = self.log.by_chain.setdefault(head.chain_id, {})
        earlier = chain.get(head.sequence)
        if earlier is None:
            chain[head.sequence] = head
            return None
        if earlier.hash != head.hash:
            return (
                f"chain {head.label} event {head.sequence} was checkpointed with another "
                f"hash at {earlier.at} ({earlier.where}): the chain was rewritten in between"
            )
        return None


def _parse(entry: dict[str, Any], raw: bytes, where: str) -> tuple[Mark, list[Checkpoint], bytes]:
    """A version 2 line's checkpoint, heads and signature; ValueError, KeyError or TypeError
    when it is not one."""
    number = entry["number"]
    previous = entry["previous"]
    if type(number) is not int or number < 1 or not (previous is None or type(previous) is str):
        raise ValueError("no number, or no previous")
    at = datetime.datetime.fromisoformat(entry["at"])
    if at.tzinfo is None or type(entry["key"]) is not str:
        raise ValueError("no time with its zone, or no key")
    heads = [
        Checkpoint(
            chain_id=_integer(head["chain"]),
            scope=str(head["scope"]),
            label=str(head["label"]),
            sequence=_integer(head["sequence"]),
            hash=str(head["hash"]),
            at=entry["at"],
            where=where,
        )
        for head in entry["heads"]
    ]
    signature = base64.b64decode(entry["signature"], validate=True)
    digest = hashlib.sha256(raw).hexdigest()
    mark = Mark(number=number, previous=previous, at=at, where=where, digest=digest)
    return mark, heads, signature


def _integer(value: object) -> int:
    if type(value) is not int:
        raise ValueError(f"{value!r} is not a whole number")
    return value


def _numbers(first: int, last: int) -> str:
    """ "checkpoint 41 is" or "checkpoints 41 to 52 are"."""
    if first == last:
        return f"checkpoint {first} is"
    return f"checkpoints {first} to {last} are"


def _lines(path: Path) -> Iterable[tuple[bytes, dict[str, Any]]]:
    """Each line of ``path`` that is a JSON object, with its bytes (no newline)."""
    try:
        file = path.open("rb")
    except FileNotFoundError:
        return
    with file:
        for raw in file:
            raw = raw.rstrip(b"\n")
            try:
                entry = json.loads(raw)
            except ValueError:
                continue  # verify_record reports it
            if isinstance(entry, dict):
                yield raw, entry


def _last_checkpoint(directory: Path) -> tuple[tuple[int, str] | None, str, bool]:
    """The newest checkpoint of version 2 in the directory (its number and its line's hash)
    and where it is; and whether an older line (version 1) was seen on the way.

    Its signature is not checked here: after a change of key the checkpoints go on from the
    old key's, and a forged last line only makes the next one follow it, which verify_record
    reports with the forgery."""
    old_seen = False
    for path in sorted(directory.glob(f"{FILE_PREFIX}*{FILE_SUFFIX}"), reverse=True):
        last = None
        for raw, entry in _lines(path):
            if entry.get("version") == VERSION and type(entry.get("number")) is int:
                last = (entry["number"], hashlib.sha256(raw).hexdigest())
            elif "version" not in entry:
                old_seen = True
        if last is not None:
            return last, path.name, old_seen
    return None, "", old_seen


def _check_beginning(
    directory: Path, at: datetime.datetime, *, start: str | None, old_seen: bool
) -> None:
    """Refuse to begin the checkpoints at 1 where that would cover up removed ones: when the
    record holds an event older than the grace, and neither old-format lines nor a reason
    (``start``) say why there is no checkpoint."""
    if start is not None or old_seen:
        return
    oldest = Event.objects.filter(created_at__lt=at - grace()).aggregate(at=Min("created_at"))
    if oldest["at"] is None:
        return
    raise CheckpointRefused(
        f"There is no checkpoint in {directory}, but the record holds events from "
        f"{when(oldest['at'])} on, older than RECORD_CHECKPOINT_GRACE ({span(grace())}): the "
        "checkpoints were removed, or were never written here. `manage.py verify_record` says "
        "which events no checkpoint covers; once that is understood, `manage.py "
        'checkpoint_record --start "REASON"` begins the checkpoints again.'
    )


def _heads_in(path: Path) -> dict[int, tuple[int, str]]:
    """The last head of each chain in the checkpoints of version 2 in ``path``."""
    heads: dict[int, tuple[int, str]] = {}
    for _raw, entry in _lines(path):
        if entry.get("version") != VERSION or not isinstance(entry.get("heads"), list):
            continue
        for head in entry["heads"]:
            try:
                heads[int(head["chain"])] = (int(head["sequence"]), str(head["hash"]))
            except (ValueError, KeyError, TypeError):
                continue  # verify_record reports it
    return heads


def _heads() -> Iterable[tuple[int, str, str, int, str]]:
    """Each chain with events: id, scope, label, and its last event's number and hash."""
    last = Event.objects.filter(chain=OuterRef("pk")).order_by("-sequence")
    return (
        Chain.objects.annotate(
            head_sequence=Subquery(last.values("sequence")[:1]),
            head_hash=Subquery(last.values("hash")[:1]),
        )
        .filter(head_sequence__isnull=False)
        .order_by("pk")
        .values_list("pk", "scope", "label", "head_sequence", "head_hash")
    )


def _line(entry: dict[str, Any]) -> bytes:
    return json.dumps(entry, sort_keys=True, ensure_ascii=False).encode("utf-8")


def _append(path: Path, line: bytes) -> None:
    """Append ``line`` to ``path`` and make it durable; after a line cut short (a crash mid
    write), on a line of its own."""
    with path.open("ab+") as file:
        size = file.seek(0, os.SEEK_END)
        if size:
            file.seek(size - 1)
            if file.read(1) != b"\n":
                line = b"\n" + line
        file.write(line + b"\n")
        file.flush()
        os.fsync(file.fileno())


def _generate(path: Path) -> Ed25519PrivateKey:
    """Make a signing key at ``path``, readable by its owner only (or read the one another
    process made first)."""
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, draft = tempfile.mkstemp(dir=path.parent, prefix=".signing-key-")
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(pem)
        os.link(draft, path)  # fails if the key exists: a key is never replaced
    except FileExistsError:
        return signing_key()
    finally:
        os.unlink(draft)
    return key


def _signed_bytes(entry: dict[str, Any]) -> bytes:
    """What a version 2 line's signature signs: every field but the signature."""
    return SIGNED_CONTEXT + _canonical({k: v for k, v in entry.items() if k != "signature"})


def _signed_bytes_v1(body: dict[str, Any]) -> bytes:
    return SIGNED_CONTEXT_V1 + _canonical({name: body[name] for name in SIGNED_FIELDS_V1})


def _canonical(value: dict[str, Any]) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )
