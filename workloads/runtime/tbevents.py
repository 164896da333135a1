"""A tiny TensorBoard event-file writer and reader: scalars only, standard library only.

TensorBoard reads `events.out.tfevents.*` files: TFRecord framing (length, masked CRC-32C,
payload, masked CRC-32C) around `tensorflow.Event` protocol buffers. The bundled apps write
three scalars a few times a minute, so a few dozen lines here replace the `tensorboard`
package (torch.utils.tensorboard needs it, and it pulls protobuf, grpcio and numpy pins that a
site's framework module may not have). The encoding follows tensorflow/core/util/event.proto
and summary.proto (Event.wall_time = 1, step = 2, file_version = 3, summary = 5;
Summary.value = 1; Value.tag = 1, simple_value = 2) and the TFRecord format of
tensorflow/core/lib/io/record_writer.cc.
"""

from __future__ import annotations

import os
import socket
import struct
import time
from pathlib import Path


def _crc32c_table() -> list[int]:
    table = []
    for n in range(256):
        crc = n
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_TABLE = _crc32c_table()


def crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data: bytes) -> int:
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _varint(value: int) -> bytes:
    out = bytearray()
    value &= (1 << 64) - 1  # int64 as protobuf encodes it
    while True:
        bits = value & 0x7F
        value >>= 7
        if value:
            out.append(bits | 0x80)
        else:
            out.append(bits)
            return bytes(out)


def _bytes_field(number: int, payload: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def encode_event(wall_time: float, step: int = 0, *, file_version: str | None = None,
                 scalars: dict[str, float] | None = None) -> bytes:
    """One serialized Event: a file-version header or a summary of simple scalars."""
    out = b"\x09" + struct.pack("<d", wall_time)
    if step:
        out += b"\x10" + _varint(step)
    if file_version is not None:
        out += _bytes_field(3, file_version.encode())
    if scalars:
        values = b"".join(
            _bytes_field(1, _bytes_field(1, tag.encode()) + b"\x15" + struct.pack("<f", value))
            for tag, value in scalars.items())
        out += _bytes_field(5, values)
    return out


def frame(record: bytes) -> bytes:
    length = struct.pack("<Q", len(record))
    return (length + struct.pack("<I", masked_crc(length)) + record
            + struct.pack("<I", masked_crc(record)))


class EventWriter:
    """Scalars to one new event file in `logdir`; flushed by `flush()` and `close()`."""

    def __init__(self, logdir: str | Path) -> None:
        self.dir = Path(logdir)
        self.dir.mkdir(parents=True, exist_ok=True)
        name = (f"events.out.tfevents.{int(time.time())}.{socket.gethostname()}."
                f"{os.getpid()}.0")
        self.path = self.dir / name
        self._fh = open(self.path, "ab")  # noqa: SIM115 - kept open for the run
        self._fh.write(frame(encode_event(time.time(), file_version="brain.Event:2")))

    def scalar(self, tag: str, value: float, step: int) -> None:
        self._fh.write(frame(encode_event(time.time(), step, scalars={tag: float(value)})))

    def flush(self) -> None:
        self._fh.flush()

    def close(self) -> None:
        if not self._fh.closed:
            self._fh.close()


def read_scalars(path: str | Path) -> list[tuple[int, str, float]]:
    """(step, tag, value) of every scalar in an event file; checks each record's CRCs."""
    data = Path(path).read_bytes()
    out: list[tuple[int, str, float]] = []
    pos = 0
    while pos < len(data):
        (length,) = struct.unpack_from("<Q", data, pos)
        (crc,) = struct.unpack_from("<I", data, pos + 8)
        if crc != masked_crc(data[pos:pos + 8]):
            raise ValueError(f"{path}: bad length CRC at byte {pos}")
        record = data[pos + 12:pos + 12 + length]
        (crc,) = struct.unpack_from("<I", data, pos + 12 + length)
        if crc != masked_crc(record):
            raise ValueError(f"{path}: bad record CRC at byte {pos}")
        pos += 16 + length
        out += _scalars(record)
    return out


def _fields(buf: bytes):
    """(field number, wire type, value) of a protobuf message."""
    i = 0
    while i < len(buf):
        key, i = _read_varint(buf, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _read_varint(buf, i)
        elif wire == 1:
            value, i = buf[i:i + 8], i + 8
        elif wire == 5:
            value, i = buf[i:i + 4], i + 4
        elif wire == 2:
            size, i = _read_varint(buf, i)
            value, i = buf[i:i + size], i + size
        else:
            raise ValueError(f"wire type {wire} is not used by scalar events")
        yield number, wire, value


def _read_varint(buf: bytes, i: int) -> tuple[int, int]:
    shift = value = 0
    while True:
        byte = buf[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, i


def _scalars(record: bytes) -> list[tuple[int, str, float]]:
    step, out = 0, []
    for number, _, value in _fields(record):
        if number == 2:
            step = value
        elif number == 5:
            for vnum, _, item in _fields(value):
                if vnum != 1:
                    continue
                tag, simple = "", None
                for inum, _, field in _fields(item):
                    if inum == 1:
                        tag = field.decode()
                    elif inum == 2:
                        (simple,) = struct.unpack("<f", field)
                if simple is not None:
                    out.append((step, tag, simple))
    return out
