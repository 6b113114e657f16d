"""The bots' HTTP/1.1 client (``loadsim.http1``) against a server written here."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from loadsim import http1

Answer = Callable[[bytes], bytes]


async def serving(
    answer: Answer, *, close_after: bool = False
) -> tuple[asyncio.Server, list[tuple[int, bytes]]]:
    """A server that reads each request whole and writes ``answer(request)``; it notes each
    request with the connection it came on."""
    seen: list[tuple[int, bytes]] = []
    connections = iter(range(1, 1000))

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        number = next(connections)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                request = head + await reader.readexactly(length)
                seen.append((number, request))
                writer.write(answer(request))
                await writer.drain()
                if close_after:
                    break
        except asyncio.IncompleteReadError:
            pass
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, seen


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


def url(server: asyncio.Server) -> str:
    return f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"


def test_answers_by_length_and_in_chunks_come_back_whole_on_one_kept_connection() -> None:
    def answer(request: bytes) -> bytes:
        if request.startswith(b"POST /chunked"):
            head = b"HTTP/1.1 409 Conflict\r\nTransfer-Encoding: chunked\r\n\r\n"
            return head + b"3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"
        return b'HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n{"ok": true}'

    async def test() -> None:
        server, seen = await serving(answer)
        client = http1.Client(url(server), connections=2, timeout=5)
        got = await client.request("POST", "/api/x/", {"Idempotency-Key": "k"}, b'{"a": 1}')
        assert (got.status, got.body) == (200, b'{"ok": true}')
        got = await client.request("POST", "/chunked/", {}, b"{}")
        assert (got.status, got.body) == (409, b"abcde")
        await client.close()
        server.close()
        assert [number for number, _ in seen] == [1, 1]  # kept alive
        assert b"Idempotency-Key: k\r\n" in seen[0][1] and seen[0][1].endswith(b'{"a": 1}')

    run(test)


def test_a_connection_the_server_closed_is_not_used_again() -> None:
    async def test() -> None:
        server, seen = await serving(
            lambda _: b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}", close_after=True
        )
        client = http1.Client(url(server), connections=1, timeout=5)
        for _ in range(3):
            got = await client.request("GET", "/", {})
            assert got.status == 200
            await asyncio.sleep(0.2)  # the server's close arrives
        await client.close()
        server.close()
        assert [number for number, _ in seen] == [1, 2, 3]

    run(test)


def test_what_is_not_http_is_an_error_and_the_connection_dropped() -> None:
    async def test() -> None:
        server, _ = await serving(lambda _: b"SSH-2.0-OpenSSH\r\n\r\n")
        client = http1.Client(url(server), connections=1, timeout=5)
        with pytest.raises(http1.HttpError, match="not an HTTP answer"):
            await client.request("GET", "/", {})
        assert client.idle == []
        server.close()

    run(test)


def test_a_body_cut_short_is_an_error_the_transport_catches() -> None:
    """The server closes in the middle of a body, or sends a chunk size that is no number:
    an ``HttpError`` (which the bots' transport turns into a command not answered), never an
    exception of asyncio's that would end the bot."""

    async def test() -> None:
        for answer, why in (
            (b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n{}", "closed"),
            (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "not an HTTP"),
        ):

            def fixed(_request: bytes, answer: bytes = answer) -> bytes:
                return answer

            server, _ = await serving(fixed, close_after=True)
            client = http1.Client(url(server), connections=1, timeout=5)
            with pytest.raises(http1.HttpError, match=why):
                await client.request("GET", "/", {})
            assert client.idle == []
            server.close()

    run(test)
