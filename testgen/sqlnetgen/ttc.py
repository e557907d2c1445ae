"""TTC primitive encoders/decoders in the *universal* representation.

Universal integers (used by every thin driver: python-oracledb, node-oracledb,
go-ora, JDBC thin) are a length byte L (0..8) followed by L big-endian bytes;
the value 0 is a single 00 byte.  Signed values set bit 0x80 of the length
byte.  Byte strings are DALCs ("CLR"): one length byte 1..252, 0/0xFF = null,
0xFE = long form made of (ub4 chunk length, chunk)* terminated by a 0 chunk
length (ub4 when BIG_CHUNK_CLR is negotiated, one raw byte otherwise).

See shared/docs/tns-wire-format.md section 4.1.
"""

from __future__ import annotations

import struct

LONG_LENGTH_INDICATOR = 0xFE
NULL_LENGTH_INDICATOR = 0xFF
MAX_SHORT_LENGTH = 252
CHUNK_SIZE = 32767


class NeedMore(Exception):
    """Raised by Reader when the buffer ends in the middle of a value."""


def enc_uint(value: int) -> bytes:
    """Universal unsigned integer, shortest of 1/2/4/8 bytes (as the drivers write it)."""
    if value < 0:
        raise ValueError("negative value for unsigned encoding")
    if value == 0:
        return b"\x00"
    if value <= 0xFF:
        return bytes((1, value))
    if value <= 0xFFFF:
        return b"\x02" + struct.pack(">H", value)
    if value <= 0xFFFFFFFF:
        return b"\x04" + struct.pack(">I", value)
    return b"\x08" + struct.pack(">Q", value)


def enc_uint_min(value: int) -> bytes:
    """Universal unsigned integer with the minimal number of bytes (servers use
    this form, e.g. 3-byte 1403 = 02 05 7b, 0x10001 = 03 01 00 01)."""
    if value == 0:
        return b"\x00"
    n = (value.bit_length() + 7) // 8
    return bytes((n,)) + value.to_bytes(n, "big")


def enc_sint(value: int) -> bytes:
    if value >= 0:
        return enc_uint_min(value)
    mag = -value
    n = (mag.bit_length() + 7) // 8
    return bytes((0x80 | n,)) + mag.to_bytes(n, "big")


# the server side uses the minimal form for every width
ub2 = ub4 = ub8 = enc_uint_min
sb2 = sb4 = enc_sint


def ub1(value: int) -> bytes:
    return bytes((value & 0xFF,))


def dalc(data: bytes | None, big_chunks: bool = True) -> bytes:
    """DALC (length-prefixed byte string); long form above 252 bytes."""
    if data is None:
        return b"\x00"
    n = len(data)
    if n <= MAX_SHORT_LENGTH:
        return bytes((n,)) + data
    out = bytearray(b"\xfe")
    pos = 0
    while pos < n:
        chunk = data[pos:pos + CHUNK_SIZE]
        if big_chunks:
            out += enc_uint(len(chunk))
        else:
            chunk = data[pos:pos + MAX_SHORT_LENGTH]
            out.append(len(chunk))
        out += chunk
        pos += len(chunk)
    out += b"\x00"
    return bytes(out)


def bytes_with_length(data: bytes | None, big_chunks: bool = True) -> bytes:
    """ub4 length, then a DALC when the length is > 0."""
    if not data:
        return b"\x00"
    return enc_uint_min(len(data)) + dalc(data, big_chunks)


def str_with_length(text: str | None, count: int | None = None) -> bytes:
    """ub4 count (Oracle sends the maximum byte size, e.g. chars x 3), then DALC."""
    if not text:
        return b"\x00"
    data = text.encode()
    return enc_uint_min(count if count is not None else len(data)) + dalc(data)


def keyword_value(key: str, value: str | None, flags: int = 0) -> bytes:
    """Auth RPA key/value entry: str_with_length key, str_with_length value, ub4 flags."""
    return str_with_length(key) + str_with_length(value) + enc_uint_min(flags)


class Reader:
    """Sequential reader of a TTC byte stream in universal representation."""

    def __init__(self, data: bytes, pos: int = 0, big_chunks: bool = True):
        self.data = data
        self.pos = pos
        self.big_chunks = big_chunks

    def remaining(self) -> int:
        return len(self.data) - self.pos

    def raw(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise NeedMore(f"need {n} bytes at {self.pos}, have {self.remaining()}")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return bytes(out)

    def u8(self) -> int:
        return self.raw(1)[0]

    def u16be(self) -> int:
        return struct.unpack(">H", self.raw(2))[0]

    def u16le(self) -> int:
        return struct.unpack("<H", self.raw(2))[0]

    def _uint(self, maxlen: int) -> int:
        length = self.u8()
        if length & 0x80:
            length &= 0x7F
            neg = True
        else:
            neg = False
        if length == 0:
            return 0
        if length > maxlen:
            raise ValueError(f"integer length {length} > {maxlen} at {self.pos - 1}")
        value = int.from_bytes(self.raw(length), "big")
        return -value if neg else value

    def ub2(self) -> int:
        return self._uint(2)

    def ub4(self) -> int:
        return self._uint(4)

    def ub8(self) -> int:
        return self._uint(8)

    def sb4(self) -> int:
        return self._uint(4)

    def dalc(self) -> bytes | None:
        length = self.u8()
        if length == 0 or length == NULL_LENGTH_INDICATOR:
            return None
        if length != LONG_LENGTH_INDICATOR:
            return self.raw(length)
        out = bytearray()
        while True:
            chunk_len = self.ub4() if self.big_chunks else self.u8()
            if chunk_len == 0:
                break
            out += self.raw(chunk_len)
        return bytes(out)

    def bytes_with_length(self) -> bytes | None:
        n = self.ub4()
        if n == 0:
            return None
        return self.dalc()

    def str_with_length(self) -> str | None:
        data = self.bytes_with_length()
        return None if data is None else data.decode("utf-8", "replace")


# --- Oracle NUMBER -------------------------------------------------------

def oracle_number(value: int) -> bytes:
    """Oracle NUMBER encoding of an integer (base-100 mantissa, excess-64 exponent)."""
    if value == 0:
        return b"\x80"
    neg = value < 0
    mag = -value if neg else value
    digits = []
    while mag:
        digits.append(mag % 100)
        mag //= 100
    digits.reverse()
    exponent = len(digits) - 1
    while digits and digits[-1] == 0:
        digits.pop()
    if not neg:
        return bytes([0xC1 + exponent] + [d + 1 for d in digits])
    out = [0x3E - exponent] + [101 - d for d in digits]
    if len(digits) < 20:
        out.append(102)
    return bytes(out)


def oracle_number_text(text: str) -> bytes:
    """Oracle NUMBER encoding of a decimal given as text ("3.14", "-1e-130" ...): the
    digits in base-100 pairs around the decimal point, the exponent in pairs (python-oracledb
    encode_number / write_oracle_number, written here from the format, not from them)."""
    from decimal import Decimal
    d = Decimal(text)
    if d == 0:
        return b"\x80"
    sign, digits, exp = d.as_tuple()
    ds = "".join(map(str, digits)).lstrip("0")
    pos = len(ds) + exp                      # the decimal point after `pos` digits of ds
    ds = ds.rstrip("0")
    if pos % 2:                              # align the point on a pair boundary
        ds, pos = "0" + ds, pos + 1
    if len(ds) % 2:
        ds += "0"
    pairs = [int(ds[i:i + 2]) for i in range(0, len(ds), 2)]
    while pairs and pairs[-1] == 0:
        pairs.pop()
    e = pos // 2 - 1                          # base-100 exponent of the first pair
    if not sign:
        return bytes([0xC1 + e] + [p + 1 for p in pairs])
    out = [(0x3E - e) & 0xFF] + [101 - p for p in pairs]
    if len(pairs) < 20:
        out.append(102)
    return bytes(out)


def oracle_date(year: int, month: int, day: int, hour=0, minute=0, second=0) -> bytes:
    return bytes((year // 100 + 100, year % 100 + 100, month, day,
                  hour + 1, minute + 1, second + 1))
