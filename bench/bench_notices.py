"""Change notices: what a notice costs the request, and what publishing it costs, per layer.

    REDIS_URL=redis://127.0.0.1:6379/7 python bench/bench_notices.py [--notices 3000]

Each notice goes to three groups (a table's, its pit's, surveillance's), as ``announce_change``
sends it. A listener in another process has one socket's channel in every group (as a server
process holding a tablet per table, a pit console and a surveillance wall would), and reports
when each notice arrived. Measured, for channels_redis's core layer and its pub/sub layer:

- publish: notices a second and sender CPU per notice, one notice after another (``group_send``
  per group, one after another or at once) and, on the pub/sub layer, pipelined in batches as
  ``tablegame.broadcast`` sends them;
- latency from ``put`` to the listener at a steady rate (p50, p99), and notices lost;
- on the request's thread: the old inline ``async_to_sync`` send against ``Publisher.put`` (a
  daemon thread's queue) and against handing the notice to an asyncio task on the server's loop.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

TABLES = 300
CORE = "channels_redis.core.RedisChannelLayer"
PUBSUB = "channels_redis.pubsub.RedisPubSubChannelLayer"


def groups_of(i: int) -> tuple[str, ...]:
    return (f"table.{i % TABLES}", "pit.1", "surveillance")


def make_layer(backend: str, url: str, prefix: str) -> Any:
    from channels_redis.core import RedisChannelLayer
    from channels_redis.pubsub import RedisPubSubChannelLayer

    cls = RedisChannelLayer if backend == CORE else RedisPubSubChannelLayer
    return cls(hosts=[url], prefix=prefix)


def listen(backend: str, url: str, prefix: str, ready: Any, out: Any, expected: int) -> None:
    """The listener process: one channel in every group; sends back (notice, arrival) pairs."""

    async def run() -> None:
        layer = make_layer(backend, url, prefix)
        channel = await layer.new_channel()
        for group in {g for i in range(TABLES) for g in groups_of(i)}:
            await layer.group_add(group, channel)
        ready.set()
        arrivals: list[tuple[int, float]] = []
        deadline = None
        while len(arrivals) < expected * 3:
            timeout = None if deadline is None else max(0.0, deadline - time.time())
            try:
                message = await asyncio.wait_for(layer.receive(channel), timeout)
            except TimeoutError:
                break
            arrivals.append((message["n"], time.time()))
            deadline = time.time() + 3.0
        out.send(arrivals)

    asyncio.run(run())


def with_listener(
    backend: str, url: str, expected: int, publish: Callable[[str], Awaitable[None] | None]
) -> tuple[list[tuple[int, float]], float]:
    """Start a listener, run ``publish(prefix)``, return what arrived and the CPU it took here."""
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    ctx = multiprocessing.get_context("spawn")
    ready, (receiving, sending) = ctx.Event(), ctx.Pipe(duplex=False)
    listener = ctx.Process(target=listen, args=(backend, url, prefix, ready, sending, expected))
    listener.start()
    ready.wait(30)
    time.sleep(0.3)
    cpu = time.process_time()
    result = publish(prefix)
    if asyncio.iscoroutine(result):
        asyncio.run(result)
    cpu = time.process_time() - cpu
    arrivals: list[tuple[int, float]] = receiving.recv()
    listener.join(10)
    return arrivals, cpu


def message(n: int) -> dict[str, Any]:
    return {
        "type": "table.changed",
        "table": n % TABLES,
        "sequence": n,
        "action": "card_dealt",
        "n": n,
    }


def bench_publish(url: str, count: int) -> list[str]:
    """Notices a second, one after another, each way of sending."""
    from tablegame.broadcast import Notice, Progress, _publish_pipelined

    lines = []

    def case(name: str, backend: str, send: Callable[[Any, int], Awaitable[None]]) -> None:
        took = {}

        async def publish(prefix: str) -> None:
            layer = make_layer(backend, url, prefix)
            started = time.perf_counter()
            for n in range(count):
                await send(layer, n)
            took["seconds"] = time.perf_counter() - started

        arrivals, cpu = with_listener(backend, url, count, publish)
        elapsed = took["seconds"]
        lost = count * 3 - len(arrivals)
        lines.append(
            f"| {name} | {count / elapsed:,.0f} | {elapsed / count * 1e3:.2f} | "
            f"{cpu / count * 1e3:.2f} | {lost} |"
        )

    async def sequential(layer: Any, n: int) -> None:
        for group in groups_of(n):
            await layer.group_send(group, message(n))

    async def together(layer: Any, n: int) -> None:
        await asyncio.gather(*(layer.group_send(g, message(n)) for g in groups_of(n)))

    def pipelined(batch: int) -> Callable[[Any, int], Awaitable[None]]:
        async def send(layer: Any, n: int) -> None:
            if n % batch == batch - 1 or n == count - 1:
                first = n - n % batch
                notices = [Notice(groups_of(i), message(i)) for i in range(first, n + 1)]
                await _publish_pipelined(layer, notices, Progress())

        return send

    case("core, `group_send` per group in turn (before)", CORE, sequential)
    case("core, `group_send` per group at once", CORE, together)
    case("pub/sub, `group_send` per group in turn", PUBSUB, sequential)
    case("pub/sub, one pipeline per notice", PUBSUB, pipelined(1))
    case("pub/sub, pipelined in batches of 50", PUBSUB, pipelined(50))
    return lines


def bench_latency(url: str, backend: str, rate: float, seconds: float) -> str:
    """Notices through ``tablegame.broadcast``'s publisher at a steady rate: put to arrival."""
    from django.conf import settings
    from django.test.utils import override_settings

    from tablegame import broadcast

    count = int(rate * seconds)
    sent_at: dict[int, float] = {}
    dropped = {"count": 0}

    def publish(prefix: str) -> None:
        layers = {"default": {"BACKEND": backend, "CONFIG": {"hosts": [url], "prefix": prefix}}}
        with override_settings(CHANNEL_LAYERS=layers):
            before = broadcast.notice_counts()
            start = time.perf_counter()
            for n in range(count):
                due = start + n / rate
                time.sleep(max(0.0, due - time.perf_counter()))
                sent_at[n] = time.time()
                broadcast.notices.put(broadcast.Notice(groups_of(n), message(n)))
            broadcast.notices.wait_idle(30)
            dropped["count"] = broadcast.notice_counts().dropped - before.dropped

    assert settings.configured
    arrivals, cpu = with_listener(backend, url, count, publish)
    latencies = sorted((at - sent_at[n]) * 1e3 for n, at in arrivals)
    lost = count * 3 - len(arrivals)
    if not latencies:
        latencies = [float("nan")]
    p50 = statistics.median(latencies)
    p99 = latencies[int(len(latencies) * 0.99) - 1]
    name = "core" if backend == CORE else "pub/sub"
    return (
        f"| {name} | {rate:,.0f} | {p50:.2f} | {p99:.2f} | {lost} of {count * 3} | "
        f"{dropped['count']} | {cpu / count * 1e3:.3f} |"
    )


def bench_request_side(url: str, count: int) -> list[str]:
    """What the request's thread spends per notice, under a running server loop."""
    from asgiref.sync import async_to_sync, sync_to_async
    from django.test.utils import override_settings

    from tablegame import broadcast

    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    core = {"default": {"BACKEND": CORE, "CONFIG": {"hosts": [url], "prefix": prefix}}}
    pubsub = {"default": {"BACKEND": PUBSUB, "CONFIG": {"hosts": [url], "prefix": prefix}}}
    results: dict[str, float] = {}

    def inline() -> None:  # before: three group_sends through async_to_sync, in the request
        from channels.layers import get_channel_layer

        layer = get_channel_layer()

        async def send(n: int) -> None:
            for group in groups_of(n):
                await layer.group_send(group, message(n))

        start = time.perf_counter()
        for n in range(count):
            async_to_sync(send)(n)
        results["inline"] = (time.perf_counter() - start) / count

    def queued() -> None:
        start = time.perf_counter()
        for n in range(count):
            broadcast.notices.put(broadcast.Notice(groups=groups_of(n), message=message(n)))
        results["queued"] = (time.perf_counter() - start) / count
        broadcast.notices.wait_idle(10)

    def to_loop(loop: asyncio.AbstractEventLoop, box: asyncio.Queue[Any]) -> None:
        start = time.perf_counter()
        for n in range(count):
            loop.call_soon_threadsafe(box.put_nowait, (groups_of(n), message(n)))
        results["loop"] = (time.perf_counter() - start) / count

    async def server(settings: dict[str, Any], work: Callable[..., None], *args: Any) -> None:
        with override_settings(CHANNEL_LAYERS=settings):
            await sync_to_async(work)(*args)

    async def server_with_task() -> None:
        box: asyncio.Queue[Any] = asyncio.Queue()
        from channels.layers import get_channel_layer

        with override_settings(CHANNEL_LAYERS=pubsub):
            layer = get_channel_layer()
            sent = 0

            async def sender() -> None:
                nonlocal sent
                while sent < count:
                    groups, msg = await box.get()
                    for group in groups:
                        await layer.group_send(group, msg)
                    sent += 1

            task = asyncio.create_task(sender())
            await sync_to_async(to_loop)(asyncio.get_running_loop(), box)
            await task

    asyncio.run(server(core, inline))
    asyncio.run(server(pubsub, queued))
    asyncio.run(server_with_task())
    return [
        f"| inline `async_to_sync`, three `group_send`s, core layer (before) | "
        f"{results['inline'] * 1e6:,.0f} |",
        f"| `Publisher.put`: a bounded `queue.Queue`, daemon sender thread | "
        f"{results['queued'] * 1e6:,.1f} |",
        f"| `loop.call_soon_threadsafe` to a task on the server's loop | "
        f"{results['loop'] * 1e6:,.1f} |",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notices", type=int, default=3000)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL")
    if not url:
        sys.exit("set REDIS_URL, e.g. redis://127.0.0.1:6379/7")
    import django

    django.setup()
    print("Publish, one notice (three groups) after another:\n")
    print("| how | notices/s | ms per notice | sender CPU ms per notice | lost |")
    print("|---|---:|---:|---:|---:|")
    for line in bench_publish(url, args.notices):
        print(line)
    print("\nThrough `tablegame.broadcast`, put to arrival at a steady rate:\n")
    print("| layer | notices/s | p50 ms | p99 ms | lost | counted as dropped | CPU ms/notice |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for backend in (CORE, PUBSUB):
        for rate in (200.0, 1000.0):
            print(bench_latency(url, backend, rate, args.seconds))
    print("\nOn the request's thread, per notice:\n")
    print("| how | µs |")
    print("|---|---:|")
    for line in bench_request_side(url, args.notices):
        print(line)


if __name__ == "__main__":
    main()
