"""Synthetic tables served by the scripted server.

A table is described by a JSON-able spec so that the pipeline, the server and
the tests agree on it:

    {"name": "SQLNET_ROWS", "rows": 1000, "row_bytes": 100,
     "columns": "standard" | [{"name": ..., "type": "number"|"varchar", ...}],
     "row_sizes": [1511, 410, ...]        # optional: per-row payload sizes (cycled)
     "error_at_row": 750, "error_code": 1722,  # optional: fetch fails at that row
     "row_time_us": 20,                    # optional: the server's work per row sent
     "bvc": true,                          # duplicate-column suppression (bit vectors)
     "values": [[...], ...],               # optional: the rows' values, given (cycled)
     "object_type": {...}}                 # the type of the "object" columns (object_type())

A column whose name starts with NULL is always NULL (a wide, NULL-heavy
table: with bit vectors each row then carries only what changed).

Rows are generated deterministically and pre-encoded once per table (the RXD
column bytes), so the benchmark can stream a million rows cheaply.
"""

from __future__ import annotations

import hashlib

from dataclasses import dataclass

import datetime
import struct

from .ttc import dalc, oracle_number, oracle_number_text, ub2, ub4, ub8

ORA_TYPE_VARCHAR = 1
ORA_TYPE_NUMBER = 2
ORA_TYPE_LONG = 8
ORA_TYPE_RAW = 23
ORA_TYPE_OBJECT = 109
ORA_TYPE_CLOB = 112
LOB_CHUNK_SIZE = 8132
CHARSET_AL32UTF8 = 873

_NULL = object()   # marks an always-NULL column while the fillers are sized

_WORDS = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
          "india", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa")


# Typed columns of the value scenarios (values given as text in the table's "values"):
# type -> (Oracle type number, character set form, buffer size).  The encodings are
# python-oracledb's and node-oracledb's read side (impl/base/buffer.pyx read_oracle_date,
# read_binary_double ...; lib/impl/datahandlers/buffer.js parseOracleDate ...).
TYPED = {"decimal": (2, 0, 22), "binary_float": (100, 0, 4), "binary_double": (101, 0, 8),
         "date": (12, 0, 7), "timestamp": (180, 0, 11), "timestamp_tz": (181, 0, 13),
         "timestamp_ltz": (231, 0, 11), "interval_ym": (182, 0, 5), "interval_ds": (183, 0, 11),
         "char": (96, 1, None), "nvarchar": (1, 2, None), "nchar": (96, 2, None), "rowid": (11, 0, 10),
         "boolean": (252, 0, 4)}


@dataclass
class Column:
    name: str
    type: str            # "number" | "varchar" | "clob" | "long" | "raw" | "object" | a TYPED key
    size: int = 22       # max byte size (VARCHAR2(size)); NUMBER buffer 22; CLOB: its locator buffer;
                         # LONG: the characters each value has (the describe says 0)

    @property
    def ora_type(self) -> int:
        if self.type in TYPED:
            return TYPED[self.type][0]
        return {"number": ORA_TYPE_NUMBER, "clob": ORA_TYPE_CLOB, "long": ORA_TYPE_LONG, "raw": ORA_TYPE_RAW,
                "object": ORA_TYPE_OBJECT}.get(self.type, ORA_TYPE_VARCHAR)

    @property
    def csfrm(self) -> int:
        return TYPED[self.type][1] if self.type in TYPED else 1


def _ts(text: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(text)


def encode_typed(kind: str, text: str) -> bytes:
    """The bytes (before the DALC length) of a typed value given as text."""
    if kind == "decimal":
        return oracle_number_text(text)
    if kind in ("binary_float", "binary_double"):
        raw = bytearray(struct.pack(">f" if kind == "binary_float" else ">d", float(text)))
        if raw[0] & 0x80:
            raw = bytearray(~b & 0xFF for b in raw)      # negative: every bit complemented
        else:
            raw[0] |= 0x80                              # positive: the sign bit set
        return bytes(raw)
    if kind in ("date", "timestamp", "timestamp_ltz", "timestamp_tz"):
        # timestamp_tz: "YYYY-MM-DD HH:MM:SS[.f]+HH:MM" local time; the wire has UTC
        tz = None
        if kind == "timestamp_tz":
            text, tz = text[:-6], text[-6:]
        t = _ts(text)
        if tz:
            off = (1 if tz[0] == "+" else -1) * (int(tz[1:3]) * 60 + int(tz[4:6]))
            t = t - datetime.timedelta(minutes=off)
        b = bytes((t.year // 100 + 100, t.year % 100 + 100, t.month, t.day, t.hour + 1, t.minute + 1,
                   t.second + 1))
        if kind == "date":
            return b
        b += (t.microsecond * 1000).to_bytes(4, "big")
        if tz:
            b += bytes((off // 60 + 20 if off >= 0 else -((-off) // 60) + 20,
                        (off % 60 if off >= 0 else -((-off) % 60)) + 60))
        return b
    if kind == "interval_ym":
        years, months = (int(x) for x in text.split())
        return ((years + 0x80000000) & 0xFFFFFFFF).to_bytes(4, "big") + bytes((months + 60,))
    if kind == "interval_ds":
        # "days hours minutes seconds nanoseconds" (each carrying the interval's sign)
        d, h, m, sec, ns = (int(x) for x in text.split())
        return (((d + 0x80000000) & 0xFFFFFFFF).to_bytes(4, "big") + bytes((h + 60, m + 60, sec + 60)) +
                ((ns + 0x80000000) & 0xFFFFFFFF).to_bytes(4, "big"))
    if kind in ("nvarchar", "nchar"):
        return text.encode("utf-16-be")
    if kind == "boolean":
        # as python-oracledb writes a BOOLEAN (write_bool: TRUE 01 01, FALSE 00 after the
        # length byte); the clients read the last byte
        return b"\x01\x01" if text == "TRUE" else b"\x00"
    return text.encode()


ROWS_PER_BLOCK = 60
BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _b64(value: int, size: int) -> str:
    return "".join(BASE64[(value >> (6 * (size - 1 - k))) & 0x3F] for k in range(size))


class Table:

    def rowid(self, row: int) -> tuple:
        """Rowid of row `row` (0-based): data object id, relative file, block, slot."""
        return (self.object_id, self.rel_file, 128 + row // ROWS_PER_BLOCK, row % ROWS_PER_BLOCK)

    @staticmethod
    def rowid_text(rid: tuple) -> str:
        """Oracle's extended rowid text (OOOOOOFFFBBBBBBRRR), as clients print it."""
        return _b64(rid[0], 6) + _b64(rid[1], 3) + _b64(rid[2], 6) + _b64(rid[3], 3)
    def __init__(self, spec: dict):
        self.spec = spec
        self.name = spec["name"].upper()
        self.nrows = int(spec.get("rows", 1000))
        self.row_bytes = int(spec.get("row_bytes", 100))
        self.row_sizes = spec.get("row_sizes")
        self.error_at_row = spec.get("error_at_row")
        self.error_code = int(spec.get("error_code", 1722))
        # the server's work per row it sends (a database reading and filtering the rows of
        # a scan): the scripted server spends it before answering a call with rows
        self.row_time_us = float(spec.get("row_time_us", 0))
        self.bvc = bool(spec.get("bvc", False))
        self.columns = self._columns(spec.get("columns", "standard"))
        # where the rows live, for rowids: data object id and relative file from the name
        h = int.from_bytes(hashlib.md5(self.name.encode()).digest()[:4], "big")
        self.object_id = 70000 + h % 60000
        self.rel_file = 1 + (h >> 16) % 40
        self.dml_rowcount = int(spec.get("dml_rowcount", self.nrows))
        self._encoded: list[list[bytes]] | None = None
        self._payload_bytes: list[int] | None = None

    def _columns(self, cols) -> list[Column]:
        if cols == "standard":
            return [Column("ID", "number", 22), Column("CATEGORY", "varchar", 16),
                    Column("NAME", "varchar", 30), Column("PAYLOAD", "varchar", 4000)]
        if cols == "blob_like":
            return [Column("ID", "number", 22), Column("DATA", "varchar", 4000)]
        if cols == "with_clob":
            return [Column("ID", "number", 22), Column("NAME", "varchar", 30), Column("DOC", "clob", 4000)]
        if cols == "with_long":
            return [Column("ID", "number", 22), Column("NAME", "varchar", 30), Column("NOTES", "long", 600)]
        return [Column(c["name"].upper(), c["type"], int(c.get("size", 22))) for c in cols]

    # ------------------------------------------------------------------
    def row_values(self, i: int) -> list:
        """Python values of row i (0-based)."""
        if self.spec.get("values"):
            given = self.spec["values"]
            return [bytes.fromhex(v[4:]) if isinstance(v, str) and v.startswith("hex:") else v
                    for v in given[i % len(given)]]
        vals = []
        target = self.row_sizes[i % len(self.row_sizes)] if self.row_sizes else self.row_bytes
        fixed = 0
        for c in self.columns:
            if c.name == "ID":
                vals.append(i + 1)
                fixed += len(oracle_number(i + 1))
            elif c.name == "CATEGORY":
                v = "cat-" + _WORDS[(i // 7) % len(_WORDS)]   # runs of 7 equal values
                vals.append(v)
                fixed += len(v)
            elif c.name == "NAME":
                v = f"{_WORDS[i % 16]}-{i + 1:07d}"
                vals.append(v)
                fixed += len(v)
            elif c.name.startswith("NULL"):
                vals.append(_NULL)  # always NULL
            else:
                vals.append(None)   # filler column, sized below
        for k, c in enumerate(self.columns):
            if c.type == "clob" and vals[k] is None:
                # a document of lob_chars characters (CLOB, read with LOB operations)
                n = int(self.spec.get("lob_chars", 300))
                base = f"document {i + 1:07d} of {self.name.lower()}: " + " ".join(_WORDS) + ". "
                vals[k] = (base * (n // len(base) + 1))[:n]
        for k, c in enumerate(self.columns):
            if c.type == "object" and vals[k] is None:
                vals[k] = self.object_value(i)
        fill = [k for k, v in enumerate(vals) if v is None]
        for k in fill:
            c = self.columns[k]
            if c.type == "number":
                vals[k] = (i * 7919) % 1000003
                continue
            n = max(1, min(c.size, target - fixed)) if len(fill) == 1 else max(1, c.size // 2)
            base = f"row {i + 1:07d} " + _WORDS[(i * 3) % 16] + " "
            vals[k] = (base * (n // len(base) + 1))[:n]
        return [None if v is _NULL else v for v in vals]

    def encode_value(self, col: Column, value) -> bytes:
        if value is None:
            return b"\x00"
        if col.type == "rowid":
            # a rowid in a fetch: a length byte (not 0), then data object id ub4, relative
            # file ub2, a byte, block ub4, slot ub2 (python-oracledb read_rowid)
            objid, rfile, block, slot = value
            return b"\x01" + ub4(objid) + ub2(rfile) + b"\x00" + ub4(block) + ub2(slot)
        if col.type in TYPED:
            return dalc(encode_typed(col.type, str(value)))
        if col.type == "number":
            return dalc(oracle_number(int(value)))
        if col.type == "long":
            # the value (long form past 252 bytes), then the null indicator sb4 and the
            # return code ub4 a LONG column carries in a fetch (python-oracledb
            # _process_column_data; universal encoding: zero is one byte)
            return dalc(str(value).encode()) + b"\x00" + b"\x00"
        if col.type == "raw":
            return dalc(bytes(value))
        if col.type == "object":
            return self.encode_object(value)
        if col.type == "clob":
            # a LOB locator with its metadata (python-oracledb read_lob_with_length):
            # locator length ub4, LOB size ub8, chunk size ub4, then the locator
            loc = self.lob_locator(str(value))
            return ub4(len(loc)) + ub8(len(value)) + ub4(LOB_CHUNK_SIZE) + dalc(loc)
        return dalc(str(value).encode())

    # --- object columns (CREATE TYPE ... AS OBJECT) ---------------------------
    def object_value(self, i: int) -> dict:
        """Attribute values of row i's object: NUMBER attributes i+1 and (i*37) % 101 (the
        first two), VARCHAR2 ones a label, NULL on every 5th row (a NULL attribute)."""
        out = {}
        nums = 0
        for a in self.spec["object_type"]["attrs"]:
            if a.get("collection_of"):
                # a VARRAY of NUMBER: i % 4 elements (none on every 4th row)
                out[a["name"]] = [i + 1 + k for k in range(i % 4)]
            elif a["type"] == "NUMBER":
                out[a["name"]] = i + 1 if nums == 0 else (i * 37) % 101
                nums += 1
            else:
                out[a["name"]] = None if i % 5 == 4 else f"{_WORDS[i % 16]} point {i + 1}"
        return out

    def object_image(self, value: dict) -> bytes:
        """The pickled image of an object: image flags 0x84 (8.1 image, no prefix segment),
        image version 1, the image's total length (one byte up to 245, else 0xFE and a ub4 big-endian),
        then per attribute a length byte and its bytes, 0xFF for NULL (go-ora v2.9.0
        utils.go decodeObject case 0x84 and GetFixedClr; python-oracledb dbobject.pyx
        DbObjectPickleBuffer read_header / _unpack_value). Our belief of what a server
        sends, read by go-ora."""
        body = bytearray()
        for a in self.spec["object_type"]["attrs"]:
            v = value.get(a["name"])
            if v is None:
                body += b"\xff"
                continue
            if a.get("collection_of"):
                data = self.collection_image(v)
            else:
                data = oracle_number(int(v)) if a["type"] == "NUMBER" else str(v).encode()
            body += bytes((len(data),)) + data      # attributes here stay under 245 bytes
        n = 3 + len(body)
        if n > 245:                              # TNS_OBJ_MAX_SHORT_LENGTH
            n += 4
            return b"\x84\x01\xfe" + n.to_bytes(4, "big") + bytes(body)
        return b"\x84\x01" + bytes((n,)) + bytes(body)

    @staticmethod
    def collection_image(elements: list) -> bytes:
        """The image of a VARRAY of NUMBER embedded in an object: image flags 0x88 (8.1
        image, collection, with a prefix segment), version 1, the image's length, the
        prefix segment (length 1, byte 1), collection flags 0, the element count, each
        element as a length byte and its bytes (python-oracledb dbobject.pyx read_header and
        the collection branch of _unpack_data_from_buf; go-ora utils.go decodeObject case
        0x88, which reads the flags and count as one 2-byte integer). Our belief."""
        body = b"\x01\x01\x00" + bytes((len(elements),)) + b"".join(
            bytes((len(oracle_number(e)),)) + oracle_number(e) for e in elements)
        return b"\x88\x01" + bytes((3 + len(body),)) + body

    def encode_object(self, value: dict | None) -> bytes:
        """An object column value (python-oracledb packet.pyx read_dbobject; go-ora
        parameter.go decodePrimValue, XMLType): type OID (ub4 length, bytes), OID and
        snapshot (empty: ub4 0 each), version ub2 0, image length ub4, flags ub2 1, the
        image (a DALC)."""
        if value is None:
            return b"\x00"
        toid = bytes.fromhex(self.spec["object_type"]["toid"])
        img = self.object_image(value)
        return ub4(len(toid)) + dalc(toid) + b"\x00\x00\x00" + ub4(len(img)) + b"\x01\x01" + dalc(img)

    @staticmethod
    def encode_long(text: str | None) -> bytes:
        """A value fetched as LONG (a CLOB the client defined as LONG): the text (long
        form past 252 bytes), the null indicator sb4 and the return code ub4."""
        if text is None:
            return b"\x00"
        return dalc(text.encode()) + b"\x00" + b"\x00"

    def encode_lob(self, text: str | None, prefetch: int = 0) -> bytes:
        """A LOB value with prefetched data (JDBC T4CClobAccessor.unmarshalPrefetchData):
        locator length, size, chunk size, a flag (1: the charset follows), the charset,
        the form of use, up to `prefetch` characters, the locator."""
        if text is None:
            return b"\x00"
        loc = self.lob_locator(text)
        head = ub4(len(loc)) + ub8(len(text)) + ub4(LOB_CHUNK_SIZE)
        if prefetch:
            head += b"\x01" + ub4(CHARSET_AL32UTF8) + b"\x01" + dalc(text[:prefetch].encode())
        return head + dalc(loc)

    def encode_lob_locator(self, text: str | None) -> bytes:
        """A LOB value without the prefetch metadata (a column the client did not define
        with the LOB prefetch flag): the locator length, then the locator."""
        if text is None:
            return b"\x00"
        loc = self.lob_locator(text)
        return ub4(len(loc)) + dalc(loc)

    def lob_locator(self, text: str) -> bytes:
        """A 40-byte locator naming the LOB (the server finds the text by it)."""
        if not hasattr(self, "_lobs"):
            self._lobs = {}
        loc = b"\x00\x70\x00\x01\x01\x0c\x00\x00" + hashlib.md5(
            f"{self.name}|{text}".encode()).digest() + bytes(16)
        self._lobs[loc] = text
        return loc

    def lob_text(self, locator: bytes) -> str | None:
        return getattr(self, "_lobs", {}).get(bytes(locator))

    @property
    def has_lob(self) -> bool:
        return any(c.type == "clob" for c in self.columns)

    def encoded_rows(self) -> list[list[bytes]]:
        """Per row, per column the encoded column bytes (DALC)."""
        if self._encoded is None:
            enc = []
            sizes = []
            for i in range(self.nrows):
                vals = self.row_values(i)
                cols = [self.encode_value(c, v) for c, v in zip(self.columns, vals)]
                enc.append(cols)
                sizes.append(sum(len(x) for x in cols))
            self._encoded = enc
            self._payload_bytes = sizes
        return self._encoded

    @property
    def has_object(self) -> bool:
        return any(c.type == "object" for c in self.columns)

    def max_row_size(self) -> int:
        return sum(c.size for c in self.columns)


def object_type(schema: str = "SCOTT", name: str = "SQLNET_POINT",
                attrs: list | None = None) -> dict:
    """An object type (CREATE TYPE name AS OBJECT (x NUMBER, y NUMBER, label VARCHAR2(40)))
    and its type OID (16 bytes, from the name)."""
    attrs = attrs or [{"name": "X", "type": "NUMBER"}, {"name": "Y", "type": "NUMBER"},
                      {"name": "LABEL", "type": "VARCHAR2", "length": 40}]
    toid = hashlib.md5(f"{schema}.{name}".encode()).hexdigest().upper()
    return {"schema": schema, "name": name, "toid": toid, "attrs": attrs}


def collection_type(schema: str = "SCOTT", name: str = "SQLNET_NUMS") -> dict:
    """A collection type (CREATE TYPE name AS VARRAY(10) OF NUMBER) and its type OID."""
    return {"schema": schema, "name": name, "toid": hashlib.md5(f"{schema}.{name}".encode()).hexdigest().upper(),
            "attrs": []}


def type_catalog_tables(otype: dict, extra: list | None = None) -> list[dict]:
    """ALL_TYPES (TYPE_OID) and ALL_TYPE_ATTRS (ATTR_NAME, ATTR_TYPE_NAME, LENGTH, ATTR_NO)
    with the rows a database has for one type: what go-ora's RegisterType selects (v2.9.0
    driver.go RegisterTypeWithOwner, utils.go getTOID2). The WHERE clauses are not
    evaluated; a query's rows are those whose key (the type name) is one of its bind
    values ("keys"). `extra`: more types (collections) in ALL_TYPES."""
    types = [otype] + list(extra or [])
    return [
        {"name": "ALL_TYPES", "rows": len(types), "bvc": False,
         "columns": [{"name": "TYPE_OID", "type": "raw", "size": 16}],
         "values": [["hex:" + t["toid"]] for t in types], "keys": [t["name"] for t in types]},
        {"name": "ALL_TYPE_ATTRS", "rows": len(otype["attrs"]), "bvc": False,
         "columns": [{"name": "ATTR_NAME", "type": "varchar", "size": 128},
                     {"name": "ATTR_TYPE_NAME", "type": "varchar", "size": 128},
                     {"name": "LENGTH", "type": "number"}, {"name": "ATTR_NO", "type": "number"}],
         "values": [[a["name"], a["type"], a.get("length"), k + 1] for k, a in enumerate(otype["attrs"])],
         "keys": [otype["name"]] * len(otype["attrs"])},
    ]


DUAL = {"name": "DUAL", "rows": 1, "columns": [{"name": "DUMMY", "type": "varchar", "size": 1}]}

