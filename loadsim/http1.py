"""A lean HTTP/1.1 client for the dealer bots: keep-alive connections, one request at a time on
each, nothing else.

The bots share the server's cores, so what the load generator spends per command is taken from
the server under test. aiohttp's client does far more per request than the bots need (cookies,
redirects, URL objects, payload classes, tracing): about a third of the load generator's CPU
went there. This sends a request as bytes and reads the answer's status, headers and body
(``Content-Length`` or chunked), over asyncio's streams.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

#: The longest head (status line and headers) of an answer read.
HEAD_LIMIT = 64 * 1024


class HttpError(Exception):
    """The connection failed or the answer was not HTTP/1.1 as this client reads it."""


@dataclass(frozen=True)
class Got:
    status: int
    body: bytes


class Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    async def exchange(self, request: bytes) -> tuple[Got, bool]:
        """Send one request; its answer, and whether the connection may be used again."""
        self.writer.write(request)
        try:
            return await self._answer()
        except asyncio.LimitOverrunError as error:
            raise HttpError("the answer's head is too long") from error
        except asyncio.IncompleteReadError as error:
            raise HttpError("the server closed the connection") from error
        except ValueError as error:  # a chunk's size that is not a number
            raise HttpError(f"not an HTTP answer: {error}") from error

    async def _answer(self) -> tuple[Got, bool]:
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head[:-4].split(b"\r\n")
        parts = lines[0].split(b" ", 2)
        if len(parts) < 2 or not parts[0].startswith(b"HTTP/1.") or not parts[1].isdigit():
            raise HttpError(f"not an HTTP answer: {lines[0][:80]!r}")
        headers: dict[bytes, bytes] = {}
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip()
        if headers.get(b"transfer-encoding", b"").lower() == b"chunked":
            body = await self._chunked()
        else:
            length = headers.get(b"content-length")
            if length is None or not length.isdigit():
                raise HttpError("an answer with neither a length nor chunks")
            body = await self.reader.readexactly(int(length)) if int(length) else b""
        reusable = headers.get(b"connection", b"").lower() != b"close" and parts[0] == b"HTTP/1.1"
        return Got(int(parts[1]), body), reusable

    async def _chunked(self) -> bytes:
        body = bytearray()
        while True:
            size_line = await self.reader.readuntil(b"\r\n")
            size = int(size_line.split(b";", 1)[0].strip(), 16)
            if size == 0:
                await self.reader.readuntil(b"\r\n")  # the end (no trailers are sent here)
                return bytes(body)
            body += await self.reader.readexactly(size)
            await self.reader.readexactly(2)

    def close(self) -> None:
        self.writer.close()


class Client:
    """Keep-alive connections to one server, at most ``connections`` open; a request waits for
    a free one."""

    def __init__(self, base_url: str, *, connections: int, timeout: float) -> None:
        parts = urlsplit(base_url)
        if parts.scheme != "http" or parts.hostname is None:
            raise ValueError(f"the bots speak plain HTTP: {base_url}")
        self.host, self.port = parts.hostname, parts.port or 80
        self.prefix = parts.path.rstrip("/")
        self.host_header = parts.netloc
        self.timeout = timeout
        self.idle: list[Connection] = []
        self.slots = asyncio.Semaphore(connections)

    async def request(
        self, method: str, path: str, headers: Mapping[str, str], body: bytes = b""
    ) -> Got:
        lines = [f"{method} {self.prefix}{path} HTTP/1.1", f"Host: {self.host_header}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body or method == "POST":
            lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
        async with self.slots:
            connection = self._idle()
            try:
                async with asyncio.timeout(self.timeout):
                    if connection is None:
                        reader, writer = await asyncio.open_connection(
                            self.host, self.port, limit=HEAD_LIMIT
                        )
                        connection = Connection(reader, writer)
                    got, reusable = await connection.exchange(request)
            except BaseException:
                if connection is not None:
                    connection.close()
                raise
            if reusable:
                self.idle.append(connection)
            else:
                connection.close()
            return got

    def _idle(self) -> Connection | None:
        """The connection used last that the server has not closed (None: open one)."""
        while self.idle:
            connection = self.idle.pop()
            if not connection.reader.at_eof() and not connection.writer.is_closing():
                return connection
            connection.close()
        return None

    async def close(self) -> None:
        for connection in self.idle:
            connection.close()
        self.idle.clear()
