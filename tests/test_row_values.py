"""Row values (issue 35 point 1): sqlnet.row.value, one per column of every row, named by
its column (sqlnet.row.column), repeated columns (bit vector) shown with the previous row's value.

Evidence:
- test-captures/values_{19,23ai}_{python,node}.pcapng: python-oracledb 26.1 and node-oracledb
  6.10 (thin) fetch a table with a column of every type the scripted server sends (NUMBER
  with 38 digits and exponents -130..125, BINARY_FLOAT/DOUBLE, VARCHAR2, CHAR, NVARCHAR2 in
  AL16UTF16, RAW, DATE, TIMESTAMP, TIMESTAMP WITH TIME ZONE, INTERVAL YEAR TO MONTH / DAY TO
  SECOND, ROWID, CLOB), NULLs and runs of equal values the server sends compressed (bit
  vectors), at two array sizes.  The client reports every value AS IT READ IT (manifest:
  client.report ... "values": python str(Decimal), repr(float), datetime.isoformat(" "),
  bytes.hex(), timedelta parts, a LOB's length read with the LOB API; node the NUMBER as the
  driver's string, String(number), a Date's own local fields, Buffer hex, interval fields).
  test-captures/values_{112,19,23ai}_goora: go-ora v2.9.0 the same table without its CLOB
  column (go-ora's LOB fetch fails against the scripted server: no LOB scenario has go-ora),
  values as go-ora gives them (NUMBER as its text, time.Time in its zone with the offset,
  intervals as its strings), once per PREFETCH_ROWS 2 and 5.
  test-captures/values_{112,19,23ai}_jdbc: ojdbc11 23.26 by the column's type (BigDecimal,
  Float/Double, LocalDateTime, OffsetDateTime, INTERVAL strings, a CLOB's length; its LOB
  prefetch brings the CLOB's data in the row).  Every value the dissector
  shows is compared with the client's, row by row; CLIENT_DEVIATIONS lists what a client
  reads otherwise than the bytes say, with the reason.  11.2 is covered by go-ora and JDBC
  (python and node need 12.1+).  The 23ai tables add a BOOLEAN column (TRUE as 01 01, FALSE
  as 00, as python-oracledb writes it).  JSON and VECTOR columns are not in the scripted
  server's table (not tested here).
- Public captures (../shared/captures/public/dbbat, go-ora against a real 23ai server): the
  values follow from the SQL text itself (literals, CAST, HEXTORAW, CONNECT BY LEVEL), decoded
  by hand from it: go_ora_numbers, go_ora_negnumbers, go_ora_binfloat, go_ora_raw,
  go_ora_temporal, go_ora_binds ("42-hello"), go_ora_compressed (bit vectors: AAA/BBB
  repeated), go_ora_largeresult (400 rows).
- A copy of a capture with one value byte flipped must fail the comparison.
"""
import datetime
import json
import math
import struct
from decimal import Decimal
from pathlib import Path

import pytest

from tshark import TEST_CAPTURES

SEP = "\x1f"
VALUE_CAPTURES = sorted(TEST_CAPTURES.glob("values_*.json"))
PUBLIC = Path(__file__).resolve().parent.parent.parent / "shared" / "captures" / "public" / "dbbat"


def dissected_values(tshark, capture, extra=()):
    """Every sqlnet.row.value of the capture in order, with its column name."""
    out = tshark.run(capture, ["-T", "fields", "-E", "occurrence=a", "-E", f"aggregator={SEP}",
                               "-e", "sqlnet.row.column", "-e", "sqlnet.row.value",
                               "-Y", "sqlnet.row.value"] + list(extra)).stdout
    vals = []
    for line in out.splitlines():
        cols, values = line.split("\t")
        vals += list(zip(cols.split(SEP), values.split(SEP)))
    return vals


def client_rows(manifest):
    rep = manifest["client"]["report"]
    for r in rep if isinstance(rep, list) else [rep]:
        for s in r.get("sessions", []):
            for st in s.get("statements", []):
                if "values" in st:
                    yield from st["values"]


def columns(manifest):
    table = next(t for t in manifest["server"]["tables"] if t["name"] == "SQLNET_VALUES")
    return [(c["name"], c["type"]) for c in table["columns"]]


# ---- the dissector's text and the client's, compared by type ----------------------------

def _parse_ts(text):
    """'YYYY-MM-DD HH:MM:SS[.fffffffff][ +HH:MM]' -> (datetime to the microsecond, ns, offset min)."""
    off = None
    if len(text) > 6 and text[-6] in "+-" and text[-3] == ":":
        off = (1 if text[-6] == "+" else -1) * (int(text[-5:-3]) * 60 + int(text[-2:]))
        text = text[:-7]
    frac = "0"
    if "." in text:
        text, frac = text.split(".")
    ns = int(frac.ljust(9, "0"))
    return datetime.datetime.strptime(text, "%Y-%m-%d %H:%M:%S").replace(microsecond=ns // 1000), ns, off


def _interval_ns(text):
    """'[+-]D HH:MM:SS.fffffffff' (JDBC: no '+', one-digit fields) -> signed nanoseconds."""
    sign = -1 if text[0] == "-" else 1
    days, clock = text.lstrip("+-").split(" ")
    hms, frac = clock.split(".")
    h, m, s = (int(x) for x in hms.split(":"))
    return sign * ((((int(days) * 24 + h) * 60 + m) * 60 + s) * 10 ** 9 + int(frac.ljust(9, "0")))


# What a client reads differently from the bytes, known and said here (driver, column, row):
CLIENT_DEVIATIONS = {
    # go-ora v2.9.0 converters.DecodeNumber reads NUMBER 1E-130 (exponent byte 0x80 - 65) as 0
    ("go-ora", "NUM", 6): "1E-130",
}


def same_value(kind, shown, client, driver):
    """Does the dissector's text `shown` say the value the client read (`client`)?"""
    if client == "NULL" or shown == "NULL":
        return client == shown
    if kind in ("decimal", "number"):
        return Decimal(shown) == Decimal(client)
    if kind == "binary_double":
        a, b = float(shown), float(client)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if kind == "binary_float":
        # the client's float64 of the float32 value; the dissector's shortest float32 text
        return struct.pack(">f", float(shown)) == struct.pack(">f", float(client))
    if kind in ("date", "timestamp", "timestamp_ltz", "timestamp_tz"):
        dt, ns, off = _parse_ts(shown)
        if driver == "jdbc-thin":
            # LocalDateTime / OffsetDateTime text: "2024-02-29T13:45:07", "...T12:00:00.500+02:00"
            c = datetime.datetime.fromisoformat(client)
            if kind == "timestamp_tz":
                return c.replace(tzinfo=None) == dt and c.utcoffset() == datetime.timedelta(minutes=off)
            return c == dt
        if driver == "go-ora":
            # time.Time in its zone: "YYYY-MM-DD HH:MM:SS.fffffffff +HH:MM" (UTC for the others)
            cdt, cns, coff = _parse_ts(client)
            return (cdt, cns) == (dt, ns) and coff == (off if kind == "timestamp_tz" else 0)
        if kind == "timestamp_tz" and driver == "node-oracledb":
            dt -= datetime.timedelta(minutes=off)      # node: the instant, in the (UTC) local zone
        if driver == "node-oracledb":
            return client == dt.strftime("%Y-%m-%d %H:%M:%S.") + f"{ns // 10 ** 6:03d}"
        return datetime.datetime.fromisoformat(client) == dt   # python: the zone's wall time
    if kind == "interval_ym":
        y, m = shown[1:].split("-")
        months = (-1 if shown[0] == "-" else 1) * (int(y) * 12 + int(m))
        if driver in ("go-ora", "jdbc-thin"):      # "[+-]YY-MM" (JDBC: "-1-6", "2-3")
            cy, cm = client.lstrip("+-").split("-")
            return months == (-1 if client[0] == "-" else 1) * (int(cy) * 12 + int(cm))
        _, cy, cm = client.split()
        return months == int(cy) * 12 + int(cm)
    if kind == "interval_ds":
        ns = _interval_ns(shown)
        if driver in ("go-ora", "jdbc-thin"):      # "[+-]DD HH:MM:SS.ffffff", JDBC "-1 2:3:4.5"
            return ns == _interval_ns(client)
        parts = client.split()
        if parts[0] == "interval_ds":              # python timedelta: days, seconds, microseconds
            d, s, us = (int(x) for x in parts[1:])
            return ns == ((d * 86400 + s) * 10 ** 6 + us) * 1000
        d, h, m, s, fs = (int(x) for x in parts[1:])   # node: each field signed
        return ns == (((d * 24 + h) * 60 + m) * 60 + s) * 10 ** 9 + fs
    if kind == "boolean":                          # JDBC: Boolean.toString
        return shown == client.upper()
    if kind == "clob":
        # "LOB DB_TYPE_CLOB <characters read>"; the row has the locator and the LOB's size, or
        # (JDBC's LOB prefetch) the data itself
        if not shown.startswith("CLOB locator ("):
            return driver == "jdbc-thin" and len(shown) == int(client.split()[-1])
        return shown.endswith(f", size {client.split()[-1]}")
    return shown == client


def table_rows(shown, names):
    """The values of the table's rows: runs of values named by its columns in order (go-ora
    runs queries of its own, SELECT SYSTIMESTAMP ..., before the table's)."""
    out, i = [], 0
    while i < len(shown):
        if [c for c, _ in shown[i:i + len(names)]] == names:
            out += shown[i:i + len(names)]
            i += len(names)
        else:
            i += 1
    return out


def mismatches(manifest, shown):
    cols = columns(manifest)
    rows = list(client_rows(manifest))
    shown = table_rows(shown, [n for n, _ in cols])
    driver = manifest["client"]["driver"]
    bad = []
    if len(shown) != len(rows) * len(cols):
        bad.append(f"{len(shown)} values shown, the client read {len(rows)} rows of {len(cols)}")
    for k, (col, value) in enumerate(shown[:len(rows) * len(cols)]):
        row, c = divmod(k, len(cols))
        name, kind = cols[c]
        known = CLIENT_DEVIATIONS.get((driver, name, row % 7 + 1))
        if known is not None and col == name and Decimal(value) == Decimal(known):
            continue                               # the bytes' value; the client reads otherwise
        if col != name or not same_value(kind, value, rows[row][c], driver):
            bad.append(f"row {row + 1} {name}: shown {col}={value!r}, client read {rows[row][c]!r}")
    return bad


@pytest.fixture(scope="module")
def one_pass(tshark):
    return {p.stem: dissected_values(tshark, TEST_CAPTURES / f"{p.stem}.pcapng") for p in VALUE_CAPTURES}


@pytest.mark.parametrize("path", VALUE_CAPTURES, ids=[p.stem for p in VALUE_CAPTURES])
def test_values_as_the_client_read_them(one_pass, path):
    m = json.loads(path.read_text())
    assert len(list(client_rows(m))) == 14          # 7 rows at each of two array sizes (or prefetches)
    assert mismatches(m, one_pass[path.stem]) == []


@pytest.mark.parametrize("path", VALUE_CAPTURES[:1], ids=[p.stem for p in VALUE_CAPTURES[:1]])
def test_second_pass_shows_the_same_values(tshark, one_pass, path):
    """-2 (and the GUI's dissection of a clicked packet) decode each packet again from the
    state kept at its start: the repeated values must come out the same."""
    assert dissected_values(tshark, TEST_CAPTURES / f"{path.stem}.pcapng", ["-2"]) == one_pass[path.stem]


def test_repeated_values_are_marked(tshark):
    """The columns the server sent compressed are shown as generated items marked (repeated),
    and each equals the value of the same column in the row before (client's values)."""
    path = VALUE_CAPTURES[0]
    m = json.loads(path.read_text())
    out = tshark.run(TEST_CAPTURES / f"{path.stem}.pcapng", ["-V", "-Y", "sqlnet.row.repeated"]).stdout
    repeated = [ln.strip() for ln in out.splitlines() if ln.strip().endswith("(repeated)]")]
    assert len(repeated) >= 10
    rows = list(client_rows(m))
    names = [n for n, _ in columns(m)]
    # the first row of each statement is sent in full; later repeats equal the row before
    assert any(ln.startswith("[VC: 'ACME'") for ln in repeated)
    for ln in repeated:
        name = ln[1:].split(":")[0]
        assert name in names
    assert sum(1 for r in range(1, len(rows)) for c in range(len(names)) if rows[r][c] == rows[r - 1][c]) >= len(
        repeated) // 2


def test_values_hidden_by_the_bind_values_preference(tshark):
    path = TEST_CAPTURES / f"{VALUE_CAPTURES[0].stem}.pcapng"
    out = tshark.run(path, ["-o", "sqlnet.show_bind_values:FALSE", "-V", "-Y", "sqlnet.row"]).stdout
    assert "sqlnet.show_bind_values is off" in out
    assert dissected_values(tshark, path, ["-o", "sqlnet.show_bind_values:FALSE"]) == []


def test_a_flipped_value_byte_fails(tshark, tmp_path):
    """The comparison can fail: the first 'ACME' in the capture becomes 'BCME'."""
    path = VALUE_CAPTURES[0]
    data = (TEST_CAPTURES / f"{path.stem}.pcapng").read_bytes()
    at = data.index(b"\x04ACME")
    cap = tmp_path / "flipped.pcapng"
    cap.write_bytes(data[:at + 1] + b"B" + data[at + 2:])
    cap.chmod(0o644)
    tmp_path.chmod(0o755)
    bad = mismatches(json.loads(path.read_text()), dissected_values(tshark, cap))
    assert bad and "BCME" in bad[0]


# ---- public captures: values known from the SQL text --------------------------------------

PUBLIC_VALUES = {
    # SELECT 3.14 AS pi, 1234567.89 AS amount, 1000000 AS million, 0.25 AS quarter FROM dual
    "go_ora_numbers": [("PI", "3.14"), ("AMOUNT", "1234567.89"), ("MILLION", "1000000"), ("QUARTER", "0.25")],
    # SELECT -42 AS neg, -3.14 AS negdec, 100 AS pos, -1000000 AS bignum FROM dual
    "go_ora_negnumbers": [("NEG", "-42"), ("NEGDEC", "-3.14"), ("POS", "100"), ("BIGNUM", "-1000000")],
    # CAST(1.5 AS BINARY_FLOAT) bf, CAST(2.5 AS BINARY_DOUBLE) bdpos, CAST(-1.5 AS BINARY_DOUBLE) bdneg
    "go_ora_binfloat": [("BF", "1.5"), ("BDPOS", "2.5"), ("BDNEG", "-1.5")],
    # HEXTORAW('48656C6C6F') r1, HEXTORAW('DEADBEEF') r2
    "go_ora_raw": [("R1", "48656c6c6f"), ("R2", "deadbeef")],
    # DATE '2024-03-15', TIMESTAMP '2024-03-15 14:30:45.123456', FROM_TZ(that, '+05:30')
    "go_ora_temporal": [("DT", "2024-03-15 00:00:00"), ("TS", "2024-03-15 14:30:45.123456"),
                        ("TSTZ", "2024-03-15 14:30:45.123456 +05:30")],
    # SELECT :1 || '-' || :2 AS v FROM dual with binds 42 and 'hello' (sqlnet.bind.value)
    "go_ora_binds": [("V", "42-hello")],
    # CASE WHEN LEVEL <= 4 THEN 'AAA' ELSE 'BBB' END grp, LEVEL num,
    # CASE WHEN MOD(LEVEL, 3) = 0 THEN NULL ELSE 'x' || LEVEL END opt ... CONNECT BY LEVEL <= 8
    "go_ora_compressed": [c for lv in range(1, 9) for c in (("GRP", "AAA" if lv <= 4 else "BBB"), ("NUM", str(lv)),
                                                              ("OPT", "NULL" if lv % 3 == 0 else f"x{lv}"))],
    # SELECT LEVEL AS id, RPAD('v'||LEVEL, 60, '.') AS payload FROM dual CONNECT BY LEVEL <= 400
    "go_ora_largeresult": [c for lv in range(1, 401) for c in (("ID", str(lv)),
                                                               ("PAYLOAD", (f"v{lv}" + "." * 60)[:60]))],
}


@pytest.mark.parametrize("name", sorted(PUBLIC_VALUES))
def test_public_capture_values(tshark, name):
    cap = PUBLIC / f"{name}.pcapng"
    if not cap.is_file():
        pytest.skip(f"{cap} not present")
    # every session starts with SELECT SYSTIMESTAMP FROM DUAL (its value is the server's clock)
    shown = [v for v in dissected_values(tshark, cap) if v[0] != "SYSTIMESTAMP"]
    assert shown == PUBLIC_VALUES[name]
