"""Oracle's SQL_ID of a statement text, computed for the tests without the
plugin: the MD5 digest of the text and a NUL byte, its last 8 bytes read as two
little-endian 32-bit words (high word first), in Oracle's base 32 (0-9, a-z
less e, i, l, o), 13 digits. Published value: "select * from dual" is
a5ks9fhw2v9s1 (V$SQL.SQL_ID)."""
import hashlib
import struct

SQL_ID_DIGITS = "0123456789abcdfghjkmnpqrstuvwxyz"
PUBLISHED = ("select * from dual", "a5ks9fhw2v9s1")


def oracle_sql_id(text):
    digest = hashlib.md5(text.encode() + b"\0").digest()
    hi, lo = struct.unpack("<II", digest[8:16])
    n = (hi << 32) | lo
    out = ""
    for _ in range(13):
        out = SQL_ID_DIGITS[n % 32] + out
        n //= 32
    return out
