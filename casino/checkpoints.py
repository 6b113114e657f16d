"""Signed checkpoints of the record, kept outside the database.

The triggers and the application's database role keep the application from changing the record,
but not the tables' owner or a database superuser: they could rewrite a chain and recompute every
hash with :func:`casino.record.event_hash`, and :func:`casino.record.verify_chain` would find it
intact. So at intervals (the Celery beat task ``casino.tasks.checkpoint_record``, or ``manage.py
checkpoint_record``) each chain's head, its last event's number and hash, is written to a file in
``RECORD_CHECKPOINT_DIR``, the place surveillance keeps it, one JSON line per chain whose head
moved, signed with Ed25519 using a private key the database never holds
(``RECORD_SIGNING_KEY_FILE``). ``verify_record`` then checks every chain against every checkpoint:
a chain whose checkpointed event is missing or has another hash is broken from that checkpoint
on, and a line whose signature does not verify is reported as forged.

Files: ``checkpoints-YYYY-MM-DD.jsonl`` (UTC day), appended to and never rewritten. The first
checkpoint of a day writes every chain that has events, so each day's file holds every head.
A line holds ``chain``, ``scope``, ``label``, ``sequence``, ``hash``, ``at`` (UTC, ISO 8601),
``key`` (the signing key's id) and ``signature`` (base64 of the Ed25519 signature of the line's
other fields as canonical JSON).

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
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from casino.models import Chain, Event

FILE_PREFIX = "checkpoints-"
FILE_SUFFIX = ".jsonl"
#: Prepended to what is signed, so a checkpoint signature is good for nothing else.
SIGNED_CONTEXT = b"baccarat-record-checkpoint/1\n"
SIGNED_FIELDS = ("chain", "scope", "label", "sequence", "hash", "at", "key")
#: Checkpointed events are looked up this many at a time.
LOOKUP_BATCH = 1000


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


@dataclass
class CheckpointLog:
    """Every checkpoint line of the directory, read and checked."""

    directory: Path
    files: int = 0
    lines: int = 0
    by_chain: dict[int, dict[int, Checkpoint]] = field(default_factory=dict)
    """Per chain id, its checkpoints by event number."""
    problems: list[str] = field(default_factory=list)
    """Lines that are forged, unreadable or contradict another, in plain words."""


@dataclass(frozen=True)
class Written:
    """What :func:`write_checkpoints` did."""

    path: Path
    written: int
    """Chains whose head was written."""
    unchanged: int
    """Chains whose head had not moved since their last checkpoint of the day."""


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


def write_checkpoints(now: datetime.datetime | None = None) -> Written:
    """Append a signed line for each chain whose head moved since its last checkpoint today."""
    now = now or timezone.now()
    key = signing_key()
    kid = key_id(key.public_key())
    directory = checkpoint_directory()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{FILE_PREFIX}{now.astimezone(datetime.UTC):%Y-%m-%d}{FILE_SUFFIX}"
    with path.open("a+", encoding="utf-8") as file:
        # One writer at a time (two beat runs, or a run by hand): the heads already in today's
        # file are read under the same lock as the new lines are appended.
        fcntl.flock(file, fcntl.LOCK_EX)
        file.seek(0)
        last: dict[int, tuple[int, str]] = {}
        for line in file:
            try:
                entry = json.loads(line)
                last[int(entry["chain"])] = (int(entry["sequence"]), str(entry["hash"]))
            except (ValueError, KeyError, TypeError):
                continue  # verify_record reports it
        lines = []
        unchanged = 0
        for chain_id, scope, label, sequence, digest in _heads():
            if last.get(chain_id) == (sequence, digest):
                unchanged += 1
                continue
            body = {
                "chain": chain_id,
                "scope": scope,
                "label": label,
                "sequence": sequence,
                "hash": digest,
                "at": now.astimezone(datetime.UTC).isoformat(timespec="microseconds"),
                "key": kid,
            }
            signature = key.sign(_signed_bytes(body))
            lines.append(
                json.dumps(
                    {**body, "signature": base64.b64encode(signature).decode("ascii")},
                    sort_keys=True,
                    ensure_ascii=False,
                )
            )
        if lines:
            file.seek(0, os.SEEK_END)
            file.write("".join(f"{line}\n" for line in lines))
            file.flush()
            os.fsync(file.fileno())
    return Written(path=path, written=len(lines), unchanged=unchanged)


def read_checkpoints(public_key: Ed25519PublicKey | None = None) -> CheckpointLog:
    """Every line of every checkpoint file, its signature checked with ``public_key`` (by
    default :func:`verify_key`)."""
    directory = checkpoint_directory()
    log = CheckpointLog(directory=directory)
    paths = sorted(directory.glob(f"{FILE_PREFIX}*{FILE_SUFFIX}")) if directory.is_dir() else []
    if not paths:
        return log
    public_key = public_key or verify_key()
    kid = key_id(public_key) if public_key is not None else None
    for path in paths:
        log.files += 1
        with path.open(encoding="utf-8") as file:
            for number, line in enumerate(file, start=1):
                if not line.strip():
                    continue
                log.lines += 1
                where = f"{path.name} line {number}"
                problem = _read_line(log, line, where, public_key, kid)
                if problem:
                    log.problems.append(f"{where}: {problem}")
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


def _signed_bytes(body: dict[str, Any]) -> bytes:
    canonical = json.dumps(
        {name: body[name] for name in SIGNED_FIELDS},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return SIGNED_CONTEXT + canonical.encode("utf-8")


def _read_line(
    log: CheckpointLog,
    line: str,
    where: str,
    public_key: Ed25519PublicKey | None,
    kid: str | None,
) -> str | None:
    """Add one line's checkpoint to ``log``; or say what is wrong with it."""
    try:
        entry = json.loads(line)
        body = {name: entry[name] for name in SIGNED_FIELDS}
        signature = base64.b64decode(entry["signature"], validate=True)
        checkpoint = Checkpoint(
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
    if public_key is None:
        return "cannot be checked: no verify key (set RECORD_VERIFY_KEY_FILE)"
    if body["key"] != kid:
        return f"signed with another key ({body['key']}, not {kid})"
    try:
        public_key.verify(signature, _signed_bytes(body))
    except InvalidSignature:
        return "FORGED: its signature does not verify"
    chain = log.by_chain.setdefault(checkpoint.chain_id, {})
    earlier = chain.get(checkpoint.sequence)
    if earlier is not None and earlier.hash != checkpoint.hash:
        return (
            f"chain {checkpoint.label} event {checkpoint.sequence} was checkpointed with another "
            f"hash at {earlier.at} ({earlier.where}): the chain was rewritten in between"
        )
    if earlier is None:
        chain[checkpoint.sequence] = checkpoint
    return None
