"""Bind values of an execute (issue 25 point 6): sqlnet.bind.value.

Evidence:
- test-captures/binds_23ai_{python,node}.pcapng: python-oracledb 26.1 and node-oracledb
  6.10 (thin) bind one value of each common type (NUMBER, VARCHAR2 short and past 252
  bytes, CHAR, NVARCHAR2, BINARY_FLOAT, BINARY_DOUBLE, DATE, TIMESTAMP, RAW, NULL) in an
  INSERT; the client reports every value as it bound it (manifest: client.report ...
  "bind_values": python str(Decimal), datetime.isoformat(" "), bytes.hex(), repr(float);
  node String(value), the Date's own fields, Buffer hex).
- test-captures/batch_*_{python,node,jdbc}: array DML whose rows are the catalogue's
  BATCH_ROWS (testgen/sqlnetgen/catalog.py), one NUMBER per row.
- NUMBER and DATE bytes computed by hand here (Oracle NUMBER: exponent byte 0xc0 + base-100
  exponent + 1 for positive numbers, complemented for negative ones; digits + 1, or
  101 - digit with a 102 terminator; DATE: century + 100, year + 100, month, day,
  hour + 1, minute + 1, second + 1), checked against the client's bytes and put into a
  copy of the capture in place of the client's to see them decoded.
"""
import json
import os
from pathlib import Path

import pytest

from tshark import TEST_CAPTURES

CAPTURE = TEST_CAPTURES / "binds_23ai_python.pcapng"
MANIFEST = json.loads(CAPTURE.with_suffix(".json").read_text())


def bound_statements(manifest):
    rep = manifest["client"]["report"]
    for r in rep if isinstance(rep, list) else [rep]:
        for s in r.get("sessions", []):
            for st in s.get("statements", []):
                if "bind_values" in st:
                    yield st


def values(tshark, capture, extra=()):
    """The sqlnet.bind.value occurrences of each frame, in order (a unit separator as the
    aggregator: values may hold commas)."""
    out = tshark.run(capture, ["-T", "fields", "-E", "occurrence=a", "-E", "aggregator=\x1f",
                               "-e", "sqlnet.bind.value", "-Y", "sqlnet.bind.value"] + list(extra)).stdout
    return [line.split("\x1f") for line in out.splitlines()]


BOUND = [p for p in sorted(TEST_CAPTURES.glob("binds_*.json")) if not p.name.startswith("binds_long")]


@pytest.mark.parametrize("path", BOUND, ids=[p.stem for p in BOUND])
def test_values_as_the_client_bound_them(tshark, path):
    m = json.loads(path.read_text())
    stmts = list(bound_statements(m))
    assert len(stmts) == 1 and stmts[0]["rowcount"] == 1
    expected = stmts[0]["bind_values"]
    assert len(expected) == 14
    assert values(tshark, TEST_CAPTURES / m["capture"]) == [expected]


def test_item_text_names_the_bind(tshark):
    out = tshark.run(CAPTURE, ["-V", "-Y", "sqlnet.bind.value"]).stdout
    st = next(bound_statements(MANIFEST))
    for i, (kind, v) in enumerate(zip(st["bind_types"], st["bind_values"]), 1):
        if kind in ("VARCHAR2", "CHAR", "NVARCHAR2") and len(v) < 100:
            assert f"Bind {i} value: '{v}'" in out, (i, v)
        elif kind == "RAW":
            assert f"Bind {i} value: {v} ({len(v) // 2} bytes)" in out
        elif len(v) < 100:
            assert f"Bind {i} value: {v}\n" in out, (i, v)


BATCH = [m for m in sorted(TEST_CAPTURES.glob("batch_*.json"))]


@pytest.mark.parametrize("path", BATCH, ids=[p.stem for p in BATCH])
def test_array_dml_rows(tshark, path):
    """The rows the plan gave the client's executemany (manifest client.steps "many"), one
    row data message per execution, in the first call that binds them."""
    m = json.loads(path.read_text())
    many = [st["many"] for st in m["client"]["steps"] if st.get("many")]
    assert many
    rows = values(tshark, TEST_CAPTURES / m["capture"])
    assert rows, "no bind values"
    assert rows[0] == [str(v) for row in many[0] for v in row]


def number_bytes(text):
    """Oracle NUMBER of a decimal text, by hand (see the module docstring)."""
    neg = text.startswith("-")
    digits = text.lstrip("-")
    ip, _, fp = digits.partition(".")
    ip = ip.lstrip("0")
    if len(ip) % 2:
        ip = "0" + ip
    if len(fp) % 2:
        fp += "0"
    pairs = [int(ip[i:i + 2]) for i in range(0, len(ip), 2)]
    exp = len(pairs) - 1
    fpairs = [int(fp[i:i + 2]) for i in range(0, len(fp), 2)]
    if not pairs:
        while fpairs and fpairs[0] == 0:
            fpairs.pop(0)
            exp -= 1
    pairs += fpairs
    while pairs and pairs[-1] == 0:
        pairs.pop()
    if not pairs:
        return b"\x80"
    if not neg:
        return bytes([0xc0 + exp + 1] + [p + 1 for p in pairs])
    return bytes([(~(0xc0 + exp + 1)) & 0xff] + [101 - p for p in pairs] + ([102] if len(pairs) < 20 else []))


def date_bytes(y, mo, d, h, mi, s):
    return bytes([y // 100 + 100, y % 100 + 100, mo, d, h + 1, mi + 1, s + 1])


def test_hand_computed_encodings_are_the_clients():
    """The hand encodings above give the bytes python-oracledb wrote for its values."""
    data = CAPTURE.read_bytes()
    assert number_bytes("123.45") == bytes.fromhex("c202182e")
    for text in ("123.45", "-0.000123", "12345678901234567890"):
        enc = number_bytes(text)
        assert bytes([len(enc)]) + enc in data, text
    assert b"\x07" + date_bytes(2024, 2, 29, 13, 45, 7) in data


def test_hand_made_values_decoded(tshark, tmp_path):
    """NUMBER and DATE bytes made here, in place of the client's (same length: the TCP
    framing is unchanged), decode to the text they were made from."""
    data = bytearray(CAPTURE.read_bytes())
    cases = [("123.45", "-1.5"), ("-0.000123", "0.0000012345"), ("12345678901234567890", "-99999999999999999")]
    for old, new in cases:
        a, b = number_bytes(old), number_bytes(new)
        assert len(a) == len(b), (old, new, a.hex(), b.hex())
        pos = data.find(bytes([len(a)]) + a)
        assert pos > 0 and data.find(bytes([len(a)]) + a, pos + 1) < 0
        data[pos + 1:pos + 1 + len(a)] = b
    old_date, new_date = date_bytes(2024, 2, 29, 13, 45, 7), date_bytes(1899, 12, 1, 0, 0, 59)
    pos = data.find(b"\x07" + old_date)
    data[pos + 1:pos + 8] = new_date
    path = tmp_path / "patched.pcapng"
    path.write_bytes(bytes(data))
    got = values(tshark, path)[0]
    assert got[:3] == ["-1.5", "0.0000012345", "-99999999999999999"]
    assert got[10] == "1899-12-01 00:00:59"


def test_preference_hides_the_values(tshark):
    out = tshark.run(CAPTURE, ["-T", "fields", "-e", "sqlnet.bind.value", "-e", "sqlnet.bind.values_hidden",
                               "-Y", "sqlnet.bind.values_hidden", "-o", "sqlnet.show_bind_values:FALSE"])
    assert out.stdout.strip(), "no call marked as hiding its values"
    assert all(line.split("\t")[0] == "" for line in out.stdout.splitlines())
    assert "ABC def" not in tshark.run(CAPTURE, ["-V", "-o", "sqlnet.show_bind_values:FALSE"]).stdout
    assert not out.stderr.strip()


def test_value_cut_by_the_capture(tshark, tmp_path):
    """A snaplen of 700 bytes cuts the OALL8 inside the 301-character VARCHAR2 (bind 6):
    the values before it are the client's, bind 6 is said cut, nothing more is walked."""
    import subprocess
    cut = tmp_path / "cut.pcapng"
    subprocess.run(["editcap", "-s", "700", str(CAPTURE), str(cut)], check=True)
    st = next(bound_statements(MANIFEST))
    assert values(tshark, cut) == [st["bind_values"][:5]]
    proc = tshark.run(cut, ["-V", "-Y", "sqlnet.bind.not_decoded"])
    assert "Bind 6 value: VARCHAR2, cut by the capture (not decoded)" in proc.stdout
    assert not proc.stderr.strip()


def test_bytes_that_are_no_number(tshark, tmp_path):
    """Bind 4 (NUMBER 0: one byte 0x80) made 0x81, which is no NUMBER (an exponent and no
    digits): said so, and the values after it still decode."""
    data = bytearray(CAPTURE.read_bytes())
    old = number_bytes("12345678901234567890")
    pos = data.find(bytes([len(old)]) + old)
    zero = pos + 1 + len(old)
    assert data[zero:zero + 2] == b"\x01\x80"
    data[zero + 1] = 0x81
    path = tmp_path / "bad.pcapng"
    path.write_bytes(bytes(data))
    st = next(bound_statements(MANIFEST))
    assert values(tshark, path) == [st["bind_values"][:3] + st["bind_values"][4:]]
    out = tshark.run(path, ["-V", "-Y", "sqlnet.bind.not_decoded"]).stdout
    assert "Bind 4 value: 1 byte that is not a NUMBER value" in out


def oracle_number(d):
    """Oracle NUMBER bytes of a Decimal, from the format's definition (module docstring)."""
    from decimal import Decimal
    if d == 0:
        return b"\x80"
    neg = d < 0
    _, digits, exp = abs(d).normalize().as_tuple()
    s = "".join(map(str, digits))
    intlen = len(s) + exp
    if intlen % 2:
        s, intlen = "0" + s, intlen + 1
    if (len(s) - intlen) % 2:
        s += "0"
    if len(s) < intlen:
        s += "0" * (intlen - len(s))
    pairs = [int(s[i:i + 2]) for i in range(0, len(s), 2)]
    e = intlen // 2 - 1
    while pairs and pairs[-1] == 0:
        pairs.pop()
    while pairs and pairs[0] == 0:
        pairs.pop(0)
        e -= 1
    assert Decimal(0) != d
    if not neg:
        return bytes([0xc1 + e] + [p + 1 for p in pairs])
    return bytes([(~(0xc1 + e)) & 0xff] + [101 - p for p in pairs] + ([102] if len(pairs) < 20 else []))


@pytest.fixture(scope="module")
def format_check(tmp_path_factory):
    import shutil
    import subprocess
    root = Path(__file__).resolve().parent.parent
    if not shutil.which("gcc") or subprocess.run(["pkg-config", "--exists", "wireshark"]).returncode:
        pytest.skip("gcc or the Wireshark development files missing")
    exe = tmp_path_factory.mktemp("fmt") / "bind_format_check"
    cflags = subprocess.run(["pkg-config", "--cflags", "wireshark"], capture_output=True, text=True).stdout.split()
    libs = subprocess.run(["pkg-config", "--libs", "wireshark"], capture_output=True, text=True).stdout.split()
    build = Path(os.environ.get("SQLNET_BUILD_DIR", root / "build"))
    subprocess.run(["gcc", "-O1", "-w"] + [f"-I{d}" for d in sorted((root / "plugin").iterdir()) if d.is_dir()] + ["-I", str(build)] + cflags +
                   [str(root / "tests" / "bind_format_check.c"), str(root / "plugin" / "decoders" / "ttc_values.c"),
                    str(root / "plugin" / "ttc" / "ttc_codec.c"), "-o", str(exe)] + libs + ["-lm"], check=True)

    def run(lines):
        return subprocess.run([str(exe)], input="".join(lines), capture_output=True, text=True,
                      check=True).stdout.splitlines()
    return run


def test_number_text_of_random_numbers(format_check):
    """3000 random NUMBERs (1-38 digits, exponents -129..125, both signs), encoded here:
    the text reads back as the same decimal, without an exponent or needless zeros."""
    import random
    from decimal import Decimal
    rnd = random.Random(25)
    vals = [Decimal(x) for x in ("1", "-1", "100", "0.01", "-0.5", "99", "1e125", "1e-129", "-1e125")]
    while len(vals) < 3000:
        digits = "".join(rnd.choice("0123456789") for _ in range(rnd.randint(1, 38))).lstrip("0") or "7"
        d = Decimal(digits).scaleb(rnd.randint(-129, 120)) * rnd.choice((1, -1))
        if -130 < d.adjusted() < 126:
            vals.append(d)
    out = format_check([f"n{oracle_number(d).hex()}\n" for d in vals])
    for d, text in zip(vals, out):
        assert text != "<bad>" and Decimal(text) == d, (d, oracle_number(d).hex(), text)
        bare = text.lstrip("-")
        assert "e" not in text.lower() and not (bare.startswith("0") and not bare.startswith("0.")), text
        assert not ("." in text and text.endswith("0")), text
    assert len(out) == len(vals)


def test_binary_double_and_float_text(format_check):
    """IEEE values encoded here (sign bit set for positive, all bits complemented for
    negative): the shortest text that reads back, as Python's repr."""
    import random
    import struct

    def flip(raw):
        b = bytearray(raw)
        return bytes(x ^ 0xff for x in b) if b[0] & 0x80 else bytes([b[0] | 0x80]) + bytes(b[1:])
    rnd = random.Random(6)
    doubles = [rnd.uniform(-1e12, 1e12) for _ in range(300)] + [0.1, -2.5, 1e300, 5e-324, 0.0, -3.141592653589793]
    out = format_check([f"f{flip(struct.pack('>d', v)).hex()}\n" for v in doubles])
    assert len(out) == len(doubles)
    for o, v in zip(out, doubles):
        # reads back; no longer than repr (which writes 2.0 where %g writes 2)
        assert float(o) == v and len(o) <= len(repr(v)), (o, v)
    floats = [1.5, -2.25, 0.1, 3.4e38]
    out = format_check([f"f{flip(struct.pack('>f', v)).hex()}\n" for v in floats])
    assert [struct.unpack(">f", struct.pack(">f", float(o)))[0] for o in out] == \
        [struct.unpack(">f", struct.pack(">f", v))[0] for v in floats]
    assert out[:3] == ["1.5", "-2.25", "0.1"]


def test_date_and_timestamp_text(format_check):
    """DATE / TIMESTAMP / TIMESTAMP WITH TIME ZONE bytes made here.  With time zone: the
    time on the wire is UTC (offset +02:30: the zone's wall time is 2h30 later, past
    midnight into 2000) unless bit 0x40 of the hour byte says it is already the zone's (go-ora
    v2 DecodeDate); a region id (bit 0x80) is shown as such."""
    ts = date_bytes(1999, 12, 31, 23, 59, 58) + (123456000).to_bytes(4, "big")
    tz = ts + bytes([20 + 2, 60 + 30])
    in_zone = ts + bytes([0x40 | (20 - 5), 60 - 30])
    region = ts + bytes([0x80 | 5, (17 << 2)])
    bad = bytes([120, 124, 13, 1, 1, 1, 1])          # month 13
    out = format_check([f"d{date_bytes(2024, 2, 29, 13, 45, 7).hex()}\n", f"d{ts.hex()}\n", f"d{tz.hex()}\n",
                        f"d{in_zone.hex()}\n", f"d{region.hex()}\n", f"d{bad.hex()}\n"])
    assert out == ["2024-02-29 13:45:07", "1999-12-31 23:59:58.123456",
                   "2000-01-01 02:29:58.123456 +02:30", "1999-12-31 23:59:58.123456 -05:30",
                   f"1999-12-31 23:59:58.123456 UTC (time zone region {5 * 64 + 17})", "<bad>"]


def test_long_bind_written_last_and_continued(tshark):
    """binds_long_23ai_python: NUMBER 1, a VARCHAR2 of 9000 characters, NUMBER 2.  python-oracledb
    writes the bind larger than the longest string after the others (the client's values: 1
    and 2 come first, in bind order 1 then 3); the 9000 bytes go on in the call's next TNS
    packet (SDU 8192), which is more call data, not an undecoded message (main's build marked
    it "TTC message not decoded")."""
    path = TEST_CAPTURES / "binds_long_23ai_python.pcapng"
    m = json.loads(path.with_suffix(".json").read_text())
    st = next(bound_statements(m))
    assert st["bind_types"] == ["NUMBER", "VARCHAR2", "NUMBER"] and len(st["bind_values"][1]) == 9000
    assert values(tshark, path) == [[st["bind_values"][0], st["bind_values"][2]]]
    out = tshark.run(path, ["-V"]).stdout
    assert "Bind 1 value: 1\n" in out and "Bind 3 value: 2\n" in out
    assert out.index("Bind 3 value: 2") < out.index("Bind 2 value: VARCHAR2, continues in the next TNS packet")
    assert "TTC message not decoded" not in out
    assert out.count("Call data (binds/defines)") == 2
