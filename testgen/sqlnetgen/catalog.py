"""The scenario catalogue committed under test-captures/ (and the benchmark)."""

from __future__ import annotations

from .tables import collection_type, object_type, type_catalog_tables

ROWS_TABLE = "SQLNET_ROWS"


def table(name=ROWS_TABLE, rows=1000, row_bytes=100, **kw) -> dict:
    d = {"name": name, "rows": rows, "row_bytes": row_bytes, "bvc": True}
    d.update(kw)
    return d


def server(tns=None, eor=None, sdu_limit=2097152, fv=None, think=0, tables=None, release=None,
           **kw) -> dict:
    """A server config; `release` picks a preset (releases.py) that tns/eor/fv override."""
    d = {"sdu_limit": sdu_limit, "think_time_ms": think, "tables": tables or [table()]}
    if release is None:
        d.update({"tns_version": 319, "end_of_response": True, "field_version": 24})
    else:
        d["server_release"] = release
    for key, val in (("tns_version", tns), ("end_of_response", eor), ("field_version", fv)):
        if val is not None:
            d[key] = val
    d.update(kw)
    return d


def plan(sdu=8192, arraysize=100, prefetchrows=2, steps=None, **kw) -> dict:
    d = {"sdu": sdu, "arraysize": arraysize, "prefetchrows": prefetchrows,
         "user": "scott", "password": "tiger", "service": "freepdb1",
         "steps": steps if steps is not None else [{"sql": f"SELECT * FROM {ROWS_TABLE.lower()}"}]}
    d.update(kw)
    return d


ARRAY_SIZES = [1, 2, 10, 15, 50, 100, 500, 1000, 5000]
SDUS = [1024, 2048, 4096, 8192, 32767, 65535, 2097152]
BENCH_ARRAY_SIZES = [10, 50, 100, 500, 1000, 5000]

PUBLISHED_ROW_SIZES = [1511, 410, 730, 300, 200, 500]

# A sweep's first statement pays the session's one-time costs (the client's and the
# scripted server's first query code paths, a JVM's class loading): 0.7 ms on a 2 ms
# statement, 100 ms and more under JDBC, which no per-call time predicts.  Sweeps meant
# to compare array sizes start with this statement on a small table of its own.
WARMUP_TABLE = "SQLNET_WARMUP"
# The LAN timing sweeps' main table costs the server 10 ms of work per statement
# (row_time_us = 10 ms / rows: 20 us a row on 500 rows), as a database spends reading and
# filtering the rows of a scan.  Without it the scripted server answers 500 rows in about
# 1 ms, and a statement at a large array size lasts 1-2 ms: less than the pauses of 1-3 ms
# that the generator's two shared cores give a client or server now and then, so one
# statement's time was as much chance as array size.
LAN_STATEMENT_WORK_MS = 10


def lan_row_time_us(rows: int) -> float:
    return LAN_STATEMENT_WORK_MS * 1000.0 / rows
WARMUP_ROWS = 20
WARMUP_STEP = {"sql": f"SELECT /* warm-up */ * FROM {WARMUP_TABLE.lower()}", "arraysize": 100}  # all rows in one or two calls


def warmup_table() -> dict:
    return table(name=WARMUP_TABLE, rows=WARMUP_ROWS)


def scenarios() -> list[dict]:
    out: list[dict] = []
    sel = f"SELECT * FROM {ROWS_TABLE.lower()}"
    for n in ARRAY_SIZES:
        out.append({"name": f"arraysize_{n}", "client": "python", "mtu": 1500,
                    "description": f"python-oracledb, 1000 rows x ~100 B, arraysize {n}, "
                                   "prefetchrows 2, SDU 8192, TNS 319 + end-of-response",
                    "server": server(), "plan": plan(arraysize=n)})
    out.append({"name": "sweep_arraysize", "client": "python", "mtu": 1500,
                "description": "bundled demo: one session, a warm-up query on a 20-row table, then the "
                               "same 500-row table fetched at array sizes " + ", ".join(map(str, ARRAY_SIZES)),
                "server": server(tables=[table(rows=500, row_time_us=lan_row_time_us(500)), warmup_table()]),
                "plan": plan(steps=[WARMUP_STEP] +
                             [{"sql": f"SELECT /* arraysize {n} */ * FROM {ROWS_TABLE.lower()}",
                               "arraysize": n} for n in ARRAY_SIZES])})
    out += prefetch_scenarios()
    for mtu in (1500, 9000):
        for sdu in SDUS:
            out.append({"name": f"sdu_{sdu}_mtu_{mtu}", "client": "python", "mtu": mtu,
                        "description": f"requested SDU {sdu} (server limit 2 MiB), MTU {mtu}; "
                                       "700 rows x ~100 B, arraysize 700 (one ~72 KB response)",
                        "server": server(sdu_limit=2097152, tables=[table(rows=700, bvc=False)]),
                        "plan": plan(sdu=sdu, arraysize=700)})
    out.append({"name": "published_example", "client": "python", "mtu": 1500,
                "description": "published worked example: SDU 2048, array size 3, rows of "
                               "1511, 410, 730, 300, 200, 500 bytes (TNS 315, classic)",
                "server": server(tns=315, eor=False, fv=12, sdu_limit=2048, tables=[
                    {"name": "PUBLISHED_ROWS", "rows": 6, "row_sizes": PUBLISHED_ROW_SIZES,
                     "columns": [{"name": "PAYLOAD", "type": "varchar", "size": 2000}]}]),
                "plan": plan(sdu=2048, arraysize=3, prefetchrows=3,
                             steps=[{"sql": "SELECT payload FROM published_rows"}])})
    out.append({"name": "error_midfetch", "client": "python", "mtu": 1500,
                "description": "ORA-01722 at row 750 during the 8th fetch: BREAK/RESET markers, "
                               "client RESET, OER with the error (rowcount includes undelivered rows)",
                "server": server(tables=[table(name="SQLNET_BAD", error_at_row=750,
                                               error_code=1722), table(rows=50)]),
                "plan": plan(steps=[{"sql": "SELECT * FROM sqlnet_bad"},
                                    {"sql": "SELECT * FROM sqlnet_rows"}],
                             arraysize=100)})
    out.append({"name": "tns315_classic", "client": "python", "mtu": 1500,
                "description": "TNS 315, field version 12, no end-of-response: responses end "
                               "with the first OER/STA",
                "server": server(tns=315, eor=False, fv=12, tables=[table(rows=500)]),
                "plan": plan(arraysize=50, steps=[{"sql": "SELECT * FROM sqlnet_rows"},
                                                  {"commit": True}, {"ping": True}])})
    out.append({"name": "tns319_eor", "client": "python", "mtu": 1500,
                "description": "TNS 319 with end-of-response (ACCEPT flags2 0x02000000): msg 29 and "
                               "data flag 0x2000 on the last packet of every response after PRO/DTY",
                "server": server(tables=[table(rows=500)]),
                "plan": plan(arraysize=50, steps=[{"sql": "SELECT * FROM sqlnet_rows"},
                                                  {"commit": True}, {"ping": True}])})
    # python-oracledb reads the REDIRECT's data from the packet after it (it waits for
    # one), node-oracledb and go-ora from the REDIRECT itself when it carries it
    for name, client, deferred in (("redirect_python", "python", True), ("redirect_node", "node", False),
                                   ("redirect_goora", "goora", False)):
        out.append({"name": name, "client": client, "mtu": 1500,
                    "description": f"{client} thin is given a listener on port 1526 that answers its CONNECT "
                                   "with a REDIRECT (header flag 0x02: the address of port 1521, a NUL, the "
                                   "client's connect data" + (", in a 10-byte REDIRECT and the DATA packet "
                                   "after it" if deferred else ", in the REDIRECT") + "); the client "
                                   "connects to port 1521 (CONNECT header flag 0x04) and runs its query there",
                    "redirect": {"from_port": 1526, "deferred": deferred},
                    "server": server(tables=[table(rows=200)]),
                    "plan": plan(arraysize=50)})
    long_sql = ("SELECT /* long statement: " + "padding " * 60 + "*/ id, category, name, payload "
                "FROM sqlnet_rows WHERE id > 0")
    out.append({"name": "long_sql", "client": "python", "mtu": 1500,
                "description": f"SQL of {len(long_sql)} bytes (> 252: DALC long form in OALL8)",
                "server": server(tables=[table(rows=100)]),
                "plan": plan(arraysize=50, steps=[{"sql": long_sql}])})
    big_sql = ("SELECT /* large request: " + "0123456789abcdef " * 300 + "*/ * FROM sqlnet_rows")
    out.append({"name": "large_request", "client": "python", "mtu": 1500,
                "description": f"OALL8 of ~{len(big_sql) + 100} bytes with SDU 1024: the request "
                               "spans several TNS DATA packets",
                "server": server(sdu_limit=1024, tables=[table(rows=200)]),
                "plan": plan(sdu=1024, arraysize=100, steps=[{"sql": big_sql}])})
    out.append({"name": "two_sessions", "client": "python", "mtu": 1500,
                "description": "two concurrent python-oracledb sessions in one capture",
                "server": server(tables=[table(rows=300)]),
                "plan": plan(arraysize=20, sessions=2)})
    out.append({"name": "mtu_576", "client": "python", "mtu": 576,
                "description": "MTU 576 (TCP payload <= 536), SDU 8192, arraysize 100",
                "server": server(tables=[table(rows=500)]),
                "plan": plan(arraysize=100)})
    out.append({"name": "nonstd_port", "client": "python", "mtu": 1500, "port": 49161,
                "description": "server on port 49161 (heuristic detection)",
                "server": server(tables=[table(rows=200)]),
                "plan": plan(arraysize=25)})
    out.append({"name": "cursor_reexec", "client": "python", "mtu": 1500,
                "description": "same query executed 3 times: OALL8 then re-execute-and-fetch (0x4E) "
                               "with num_iters = prefetchrows on the cached cursor",
                "server": server(tables=[table(rows=120)]),
                "plan": plan(arraysize=50, prefetchrows=5,
                             steps=[{"sql": "SELECT * FROM sqlnet_rows", "repeat": 3}])})
    out.append({"name": "think_time", "client": "python", "mtu": 1500,
                "description": "server think time 20 ms per call (service time visible in frame times)",
                "server": server(think=20, tables=[table(rows=200)]),
                "plan": plan(arraysize=50)})
    out.append({"name": "paced_sweep", "client": "python", "mtu": 1500,
                "description": "a paced array-size sweep long enough for an I/O graph at 1 s: "
                               "server think time 20 ms per call, a 300-row table fetched at "
                               "array sizes " + ", ".join(map(str, ARRAY_SIZES)),
                "server": server(think=20, tables=[table(rows=300)]),
                "plan": plan(steps=[{"sql": f"SELECT /* paced arraysize {n} */ * FROM {ROWS_TABLE.lower()}",
                                     "arraysize": n} for n in ARRAY_SIZES])})
    out.append({"name": "node_basic", "client": "node", "mtu": 1500,
                "description": "node-oracledb thin: fetchArraySize 40, prefetchRows 5, SDU 4096",
                "server": server(tables=[table(rows=300)]),
                "plan": plan(sdu=4096, arraysize=40, prefetchrows=5)})
    out.append({"name": "node_tns315", "client": "node", "mtu": 1500,
                "description": "node-oracledb thin against a TNS 315 / fv 12 server (no EOR)",
                "server": server(tns=315, eor=False, fv=12, tables=[table(rows=200)]),
                "plan": plan(sdu=8192, arraysize=100, prefetchrows=2)})
    out.append({"name": "goora_basic", "client": "goora", "mtu": 1500,
                "description": "go-ora v2.9.0: PREFETCH_ROWS 30 (first execute and every fetch); "
                               "go-ora always asks SDU 2 MiB, the server limit 8192 decides; "
                               "ANO negotiation, OVERSION, NLS PL/SQL block answered with ORA-06550",
                "server": server(sdu_limit=8192, tables=[table(rows=300)]),
                "plan": plan(sdu=2097152, arraysize=30, prefetchrows=30,
                             steps=[{"sql": "SELECT * FROM sqlnet_rows"},
                                    {"sql": "SELECT * FROM sqlnet_rows", "repeat": 2},
                                    {"commit": True}, {"ping": True}])})
    # issue 23: time the model does not explain, inside one statement and before it
    out.append({"name": "pauses_stall", "client": "python", "mtu": 1500,
                "description": "python-oracledb, 200 rows x ~100 B at arraysize 20 (prefetch 20) three "
                               "times; the second (/* stalled */) comes after 300 ms of client idle time, "
                               "its client sleeps 80 ms after its 3rd fetch, and the server writes its 2nd "
                               "and 6th fetch responses in two writes with Nagle on (the second write "
                               "waits for the client's delayed ACK); one array size: not a sweep",
                "server": server(tables=[table(rows=200), warmup_table()],
                                 split_send={"sql_contains": "stalled", "fetch_calls": [2, 6],
                                             "delay_ms": 0}),
                "plan": plan(steps=[dict(WARMUP_STEP, arraysize=20, prefetchrows=20)] +
                             [dict({"sql": f"SELECT /* {name} */ * FROM sqlnet_rows", "arraysize": 20,
                                    "prefetchrows": 20}, **extra)
                              for name, extra in (("steady", {}),
                                                  ("stalled", {"sleep_before_ms": 300,
                                                               "sleep_after_fetch": {"after": 3, "ms": 80}}),
                                                  ("steady again", {}))])})
    out += jdbc_scenarios() + release_scenarios() + shape_scenarios() + wan_scenarios() + tls_scenarios()
    out += held_out_scenarios()
    out += bind_scenarios()
    out += value_scenarios()
    out += pattern_scenarios()
    return out


# Typed input binds (issue 25 point 6): the values as python-oracledb sends them in the
# OALL8 row data; the client reports each value as it bound it ("bind_values").
BIND_VALUES = [["NUMBER", "123.45"], ["NUMBER", "-0.000123"], ["NUMBER", "12345678901234567890"],
               ["NUMBER", "0"], ["VARCHAR2", "ABC def"], ["VARCHAR2", "x" * 300 + "y"],
               ["CHAR", "fixed"], ["NVARCHAR2", "Grüße €"], ["BINARY_FLOAT", "1.5"],
               ["BINARY_DOUBLE", "-3.141592653589793"], ["DATE", "2024-02-29 13:45:07"],
               ["TIMESTAMP", "1999-12-31 23:59:58.123456"], ["RAW", "00ff10ab"], ["NULL", ""]]


# node-oracledb: JavaScript numbers (a double: 15-16 digits) and dates (milliseconds)
BIND_VALUES_NODE = [v if v[0] not in ("NUMBER", "TIMESTAMP") or v[1] not in
                    ("12345678901234567890", "1999-12-31 23:59:58.123456") else
                    [v[0], {"NUMBER": "1234567890123456", "TIMESTAMP": "1999-12-31 23:59:58.123"}[v[0]]]
                    for v in BIND_VALUES]


VALUES_TABLE = "SQLNET_VALUES"
# A column of every type the scripted server can send, values as text (tables.encode_typed):
# NULLs, and runs of equal values the server sends compressed (bit vector) in later rows.
# Every CLOB differs (a real server's locators always do: ojdbc 23 fails on a repeated LOB
# column, NoSuchMethodError T4C_lobAccessor.copyRow).
VALUE_COLUMNS = [
    {"name": "ID", "type": "decimal"}, {"name": "NUM", "type": "decimal"},
    {"name": "BF", "type": "binary_float"}, {"name": "BD", "type": "binary_double"},
    {"name": "VC", "type": "varchar", "size": 40}, {"name": "CH", "type": "char", "size": 10},
    {"name": "NVC", "type": "nvarchar", "size": 80}, {"name": "RW", "type": "raw", "size": 16},
    {"name": "DT", "type": "date"}, {"name": "TS", "type": "timestamp"},
    {"name": "TSTZ", "type": "timestamp_tz"}, {"name": "IYM", "type": "interval_ym"},
    {"name": "IDS", "type": "interval_ds"}, {"name": "RID", "type": "rowid"},
    {"name": "DOC", "type": "clob", "size": 4000}, {"name": "FLAG", "type": "boolean"},
]
VALUE_ROWS = [
    ["1", "3.14", "1.5", "1.5", "ACME", "fixed     ", "Gr\u00fc\u00dfe \u20ac", "hex:48656c6c6f",
     "2024-02-29 13:45:07", "1999-12-31 23:59:58.123456", "2024-06-01 12:00:00.500000+02:00",
     "2 3", "1 2 3 4 500000000", [70001, 4, 151, 0], "document one", "TRUE"],
    ["2", "-42", "-0.25", "-3.141592653589793", "ACME", "fixed     ", None, "hex:00ff10ab",
     "2024-02-29 13:45:07", "2000-01-01 00:00:00", "2024-06-01 12:00:00.500000+02:00",
     "-1 -6", "-1 -2 -3 -4 -500000000", [70001, 4, 151, 1], None, "TRUE"],
    ["3", "0", None, "1e+300", "42-hello", None, "\u65e5\u672c", None,
     "1970-01-01 00:00:00", None, "1999-12-31 23:30:00.000000-05:30",
     None, "0 -2 0 0 0", None, "document three", "FALSE"],
    ["4", "12345678901234567890123456789012345678", "3.4028234663852886e+38", "5e-324", "42-hello",
     "fixed     ", "\u65e5\u672c", "hex:00", "2099-12-31 23:59:59", "2024-02-29 13:45:07.000001",
     None, "100 11", "10 0 0 0 1000", [70001, 4, 152, 17], "document four", None],
    ["5", "-0.000123", "-1.5", "0.1", None, "x         ", "abc", "hex:00", "2099-12-31 23:59:59",
     "2024-02-29 13:45:07.000001", "2024-06-01 12:00:00.500000+00:00", "100 11", "10 0 0 0 1000",
     [70001, 4, 152, 17], "document five", "FALSE"],
    ["6", "1e-130", "0", "-0.0", "", "x         ", "abc", "hex:ffff", None, None, None, None, None, None, None, "TRUE"],
    ["7", "9.99e125", "7", "7", "ACME", "x         ", "abc", "hex:ffff", "2024-02-29 13:45:07",
     "2000-01-01 00:00:00", "2024-06-01 12:00:00.500000+02:00", "0 1", "0 0 0 1 0", [70001, 4, 151, 0],
     "document seven", "TRUE"],
]
VALUE_ARRAY_SIZES = [2, 5]
# which client reports its values for which release (python-oracledb and node-oracledb need 12.1+)
VALUE_CLIENTS = {"11.2": ["goora", "jdbc"], "19": ["python", "node", "goora", "jdbc"], "23ai": ["python", "node", "goora", "jdbc"]}


# types a client cannot read (it fails the fetch): left out of its table
VALUE_SKIP = {"goora": ("clob",)}
# BOOLEAN columns exist from 23ai on


def value_table(skip=()) -> dict:
    keep = [k for k, c in enumerate(VALUE_COLUMNS) if c["type"] not in skip]
    return table(name=VALUES_TABLE, rows=len(VALUE_ROWS), columns=[VALUE_COLUMNS[k] for k in keep],
                 values=[[row[k] for k in keep] for row in VALUE_ROWS])


def value_scenarios() -> list[dict]:
    """Row values (issue 35): a table with a column of every type the scripted server sends,
    NULLs and runs of repeated values (bit vectors), fetched at two array sizes; the client
    reports every value it read (its own text of it), the tests compare the dissector's
    sqlnet.row.value with them row by row."""
    out = []
    for rel, clients in VALUE_CLIENTS.items():
        for client in clients:
            steps = [{"sql": f"SELECT /* values arraysize {n} */ * FROM {VALUES_TABLE.lower()}",
                      "arraysize": n, "prefetchrows": 2, "report_values": True} for n in VALUE_ARRAY_SIZES]
            extra = {}
            if client == "goora":
                # go-ora fetches at its connection's PREFETCH_ROWS: one connection per size
                steps = []
                extra = {"client_plans": [{"prefetchrows": n, "steps": [
                    {"sql": f"SELECT /* values prefetch {n} */ * FROM {VALUES_TABLE.lower()}",
                     "report_values": True}]} for n in VALUE_ARRAY_SIZES]}
            out.append({"name": f"values_{rel.replace('.', '')}_{client}", "client": client, "mtu": 1500,
                        "description": f"{client} against {rel}: {len(VALUE_ROWS)} rows of "
                                       f"{len(VALUE_COLUMNS)} typed columns (NULLs, repeated values in "
                                       "bit vectors) fetched at array sizes "
                                       + " and ".join(map(str, VALUE_ARRAY_SIZES)) + "; the client reports "
                                       "every value it read",
                        "server": server(release=rel, sdu_limit=8192,
                                         tables=[value_table(VALUE_SKIP.get(client, ()) +
                                                             (() if rel == "23ai" else ("boolean",)))]),
                        "plan": plan(sdu=8192, arraysize=2, prefetchrows=2, steps=steps), **extra})
    return out


def bind_scenarios() -> list[dict]:
    """An INSERT with one bind of each common type (python-oracledb and node-oracledb, 23ai)."""
    out = []
    for client, values in (("python", BIND_VALUES), ("node", BIND_VALUES_NODE)):
        cols = ", ".join(f"c{i + 1}" for i in range(len(values)))
        marks = ", ".join(f":{i + 1}" for i in range(len(values)))
        out.append({"name": f"binds_23ai_{client}", "client": client, "mtu": 1500,
                    "description": f"{client}-oracledb against 23ai: an INSERT binding NUMBER (4 values), "
                                   "VARCHAR2 (one of 301 characters: the long form), CHAR, NVARCHAR2, "
                                   "BINARY_FLOAT, BINARY_DOUBLE, DATE, TIMESTAMP, RAW and a NULL",
                    "server": server(release="23ai", sdu_limit=8192, tables=[table(rows=20)]),
                    "plan": plan(sdu=8192, arraysize=20, steps=[
                        {"sql": f"INSERT INTO {ROWS_TABLE.lower()} ({cols}) VALUES ({marks})", "dml": True,
                         "binds": values},
                        {"commit": True}])})
    # a bind larger than the longest string goes after the others, and here past the SDU
    out.append({"name": "binds_long_23ai_python", "client": "python", "mtu": 1500,
                "description": "python-oracledb against 23ai: an INSERT binding NUMBER 1, a VARCHAR2 "
                               "of 9000 characters and NUMBER 2 (the long bind is written last, "
                               "its value in the call's next TNS packet: SDU 8192)",
                "server": server(release="23ai", sdu_limit=8192, tables=[table(rows=20)]),
                "plan": plan(sdu=8192, arraysize=20, steps=[
                    {"sql": f"INSERT INTO {ROWS_TABLE.lower()} (c1, c2, c3) VALUES (:1, :2, :3)", "dml": True,
                     "binds": [["NUMBER", "1"], ["VARCHAR2", "z" * 9000], ["NUMBER", "2"]]},
                    {"commit": True}])})
    return out


# Held-out sweeps (issue 23): made with parameters no part of the advisor's time model was
# tuned on (another server release, row size, SDU, client family, a WAN delay of its own),
# marked "held_out": true in the scenario and its manifest.  No fit or tuning may read them;
# only the tests that predict them do (tests/test_advise_time.py).
HELD_OUT_PY_SIZES = [1, 5, 20, 100, 500]
HELD_OUT_PY_ROWS = 600
HELD_OUT_NODE_SIZES = [2, 10, 50, 200, 1000]
HELD_OUT_NODE_ROWS = 1200


def held_out_scenarios() -> list[dict]:
    return [
        {"name": "heldout_19c_sdu2048", "client": "python", "mtu": 1500, "held_out": True,
         "description": f"held out: python-oracledb against the 19c server preset, a warm-up query, "
                        f"then {HELD_OUT_PY_ROWS} rows x 250 B (5 us of server work a row) at SDU 2048, "
                        "prefetchrows = arraysize in every statement, array sizes "
                        + ", ".join(map(str, HELD_OUT_PY_SIZES)),
         "server": server(release="19", tables=[table(rows=HELD_OUT_PY_ROWS, row_bytes=250, row_time_us=5),
                                                warmup_table()]),
         "plan": plan(sdu=2048, steps=[dict(WARMUP_STEP, prefetchrows=100)] +
                      [{"sql": f"SELECT /* held out arraysize {n} */ * FROM {ROWS_TABLE.lower()}",
                        "arraysize": n, "prefetchrows": n} for n in HELD_OUT_PY_SIZES])},
        {"name": "heldout_node_wan4", "client": "node", "mtu": 1500, "held_out": True,
         "netem": wan(4),
         "description": f"held out: node-oracledb thin over a 4 ms WAN link (delay 2 ms each way), "
                        f"a warm-up query, then {HELD_OUT_NODE_ROWS} rows x 60 B at SDU 8192, prefetchRows = "
                        "fetchArraySize in every statement, array sizes " + ", ".join(map(str, HELD_OUT_NODE_SIZES)),
         "server": server(tables=[table(rows=HELD_OUT_NODE_ROWS, row_bytes=60), warmup_table()]),
         "plan": plan(sdu=8192, steps=[dict(WARMUP_STEP, prefetchrows=100)] +
                      [{"sql": f"SELECT /* held out arraysize {n} */ * FROM {ROWS_TABLE.lower()}",
                        "arraysize": n, "prefetchrows": n} for n in HELD_OUT_NODE_SIZES])},
    ]


# WAN scenarios (issue 14): the same netem delay on each direction, so RTT = 2 x delay_ms.
# Rows per RTT: fewer at high RTT (each round trip costs an RTT; captures stay small).
WAN_RTTS = {1: 600, 10: 400, 50: 200}
WAN_ARRAY_SIZES = [10, 50, 200]          # plus array size 1 on a few rows
WAN_FEW_ROWS = {1: 20, 10: 10, 50: 5}
WAN_SDUS = [2048, 8192, 32767]
WAN_SDU_ARRAYSIZE = 100


# Prefetch tied to the array size (issue 23): the client sets prefetchrows = arraysize, so each
# execute brings as many rows as each fetch asks for; one connection per array size, so that no
# connection shows two array sizes (what the advisor needed before to call them tied).
PREFETCH_TIED_SIZES = [3, 8, 20, 50]
PREFETCH_TIED_ROWS = 80


def prefetch_scenarios() -> list[dict]:
    """python-oracledb against the 19c preset, SDU 2048, 250-byte rows (5 us of server work a
    row): the same table fetched with prefetchrows = arraysize, one connection per size."""
    rows = PREFETCH_TIED_ROWS
    return [{"name": "prefetch_tied_19_python", "client": "python", "mtu": 1500,
             "description": f"python-oracledb against 19c, SDU 2048: {rows} rows x ~250 B fetched with "
                            "prefetchrows = arraysize, one connection each at "
                            + ", ".join(map(str, PREFETCH_TIED_SIZES)),
             "server": server(release="19", sdu_limit=2048,
                              tables=[table(rows=rows, row_bytes=250, row_time_us=5)]),
             "plan": plan(sdu=2048),
             "client_plans": [{"arraysize": n, "prefetchrows": n, "steps": [
                 {"sql": f"SELECT /* arraysize {n} */ * FROM {ROWS_TABLE.lower()}"}]}
                 for n in PREFETCH_TIED_SIZES]}]


def wan(rtt_ms: float, **kw) -> dict:
    d = {"delay_ms": rtt_ms / 2}
    d.update(kw)
    return d


def wan_arraysize_steps(few: int, sizes=WAN_ARRAY_SIZES) -> list[dict]:
    return ([{"sql": "SELECT /* arraysize 1 */ * FROM sqlnet_few", "arraysize": 1, "prefetchrows": 1}] +
            [{"sql": f"SELECT /* arraysize {n} */ * FROM {ROWS_TABLE.lower()}", "arraysize": n,
              "prefetchrows": n} for n in sizes])


def wan_scenarios() -> list[dict]:
    """Captures where network latency dominates: a delay (and a rate limit or loss) on
    both directions of the link, the capture on the server side as everywhere else."""
    out = []
    for rtt, rows in WAN_RTTS.items():
        few = WAN_FEW_ROWS[rtt]
        tables = [table(rows=rows), table(name="SQLNET_FEW", rows=few)]
        out.append({"name": f"wan_rtt{rtt}_arraysize", "client": "python", "mtu": 1500,
                    "netem": wan(rtt),
                    "description": f"RTT {rtt} ms (netem delay {rtt / 2:g} ms each way): python-oracledb, "
                                   f"{few} rows at arraysize 1, then {rows} rows at arraysize "
                                   + ", ".join(map(str, WAN_ARRAY_SIZES)) + " (prefetchrows = arraysize)",
                    "server": server(tables=tables),
                    "plan": plan(steps=wan_arraysize_steps(few))})
        out.append({"name": f"wan_rtt{rtt}_sdu", "client": "python", "mtu": 1500,
                    "netem": wan(rtt),
                    "description": f"RTT {rtt} ms: one connection per SDU " + ", ".join(map(str, WAN_SDUS))
                                   + f", each fetching {rows} rows at arraysize {WAN_SDU_ARRAYSIZE} "
                                     f"(prefetchrows {WAN_SDU_ARRAYSIZE})",
                    "server": server(tables=[table(rows=rows)]),
                    "plan": plan(arraysize=WAN_SDU_ARRAYSIZE, prefetchrows=WAN_SDU_ARRAYSIZE),
                    "client_plans": [{"sdu": sdu} for sdu in WAN_SDUS]})
    rows, few = WAN_RTTS[10], WAN_FEW_ROWS[10]
    tables = [table(rows=rows), table(name="SQLNET_FEW", rows=few)]
    out.append({"name": "wan_rtt10_rate10m", "client": "python", "mtu": 1500,
                "netem": wan(10, rate_mbit=10),
                "description": "RTT 10 ms and 10 Mbit/s each way: the arraysize sweep of wan_rtt10_arraysize",
                "server": server(tables=tables), "plan": plan(steps=wan_arraysize_steps(few))})
    out.append({"name": "wan_rtt10_loss", "client": "python", "mtu": 1500,
                "netem": wan(10, loss_pct=0.5),
                "description": "RTT 10 ms and 0.5 % random loss each way: the arraysize sweep of "
                               "wan_rtt10_arraysize (TCP retransmissions in the capture)",
                "server": server(tables=tables), "plan": plan(steps=wan_arraysize_steps(few))})
    # the same sweep over a 20 ms link captured at each end: near the server the
    # RTT sits in the client's gaps, near the client in the wait for each answer;
    # the client reports its own time around each statement (t_execute, t_fetched)
    for end in ("server", "client"):
        out.append({"name": f"timed_rtt20_near_{end}", "client": "python", "mtu": 1500,
                    "netem": wan(20), "capture_at": end,
                    "description": f"RTT 20 ms, captured near the {end}: python-oracledb, 5 rows at arraysize 1, "
                                   "then 200 rows at arraysize 10, 50, 200; the client's own clock around "
                                   "each statement in the manifest",
                    "server": server(tables=[table(rows=200), table(name="SQLNET_FEW", rows=5)]),
                    "plan": plan(steps=wan_arraysize_steps(5))})
    out.append({"name": "wan_rtt10_jdbc_fetchsize", "client": "jdbc", "mtu": 1500,
                "netem": wan(10),
                "description": f"RTT 10 ms: JDBC thin (ojdbc11), {few} rows at fetch size 1, then {rows} "
                               "rows at Statement.setFetchSize " + ", ".join(map(str, WAN_ARRAY_SIZES)),
                "server": server(release="23ai", tables=tables),
                "plan": plan(arraysize=10, prefetchrows=10, steps=wan_arraysize_steps(few))})
    return out


TLS_PORT = 2484          # TCPS by convention (Oracle Autonomous Database: 1522)
TLS_DEMO_ROWS = 150


def tls_scenarios() -> list[dict]:
    """TCPS (issue 15): python-oracledb over TLS 1.2 and 1.3 to the scripted server, which
    makes a throwaway CA and certificate and writes the key log; the capture embeds it."""
    out = []
    for ver in ("1.2", "1.3"):
        tag = ver.replace(".", "")
        out.append({"name": f"tls{tag}_arraysize", "client": "python", "mtu": 1500,
                    "port": TLS_PORT, "tls": {"version": ver},
                    "description": f"TCPS, TLS {ver} (secrets embedded): the statements and table of "
                                   "arraysize_100 (1000 rows x ~100 B, arraysize 100, prefetchrows 2, "
                                   "SDU 8192) over TLS",
                    "server": server(), "plan": plan(arraysize=100)})
    out.append({"name": "tls13_node", "client": "node", "mtu": 1500,
                "port": TLS_PORT, "tls": {"version": "1.3"},
                "description": "TCPS, TLS 1.3 (secrets embedded): node-oracledb thin (the CA through "
                               "NODE_EXTRA_CA_CERTS, no wallet), fetchArraySize 40, prefetchRows 5, "
                               "SDU 4096, 300 rows (node_basic's statements over TLS)",
                "server": server(tables=[table(rows=300)]),
                "plan": plan(sdu=4096, arraysize=40, prefetchrows=5)})
    out.append({"name": "tls12_goora", "client": "goora", "mtu": 1500,
                "port": TLS_PORT, "tls": {"version": "1.2"},
                "description": "TCPS, TLS 1.2 (secrets embedded): go-ora v2.9.0 (SSL=true, SSL VERIFY "
                               "against the CA through SSL_CERT_FILE), PREFETCH_ROWS 30, 300 rows, "
                               "ANO negotiation inside TLS (goora_basic's first statement)",
                "server": server(sdu_limit=8192, tables=[table(rows=300)]),
                "plan": plan(sdu=2097152, arraysize=30, prefetchrows=30,
                             steps=[{"sql": "SELECT * FROM sqlnet_rows"}, {"commit": True}])})
    out.append({"name": "nne_goora", "client": "goora", "mtu": 1500,
                "description": "native network encryption: go-ora v2.9.0 with ENCRYPTION=REQUIRED; "
                               "the server picks AES256 (no data integrity) in the ANO reply and "
                               "sends Diffie-Hellman parameters, the client its public key; every "
                               "later DATA payload is AES-CBC encrypted; PREFETCH_ROWS 30, 300 "
                               "rows three times (goora_basic's statements)",
                "server": server(sdu_limit=8192, tables=[table(rows=300)],
                                 nne={"encryption": "AES256", "integrity": None}),
                "plan": plan(sdu=2097152, arraysize=30, prefetchrows=30,
                             nne={"encryption": "REQUIRED"},
                             steps=[{"sql": "SELECT * FROM sqlnet_rows"},
                                    {"sql": "SELECT * FROM sqlnet_rows", "repeat": 2},
                                    {"commit": True}, {"ping": True}])})
    out.append({"name": "nne_goora_sha256", "client": "goora", "mtu": 1500,
                "description": "native network encryption with data integrity: go-ora v2.9.0 with "
                               "ENCRYPTION=REQUIRED and DATA INTEGRITY=REQUIRED; the server picks "
                               "AES256 and SHA256 (a 32-byte checksum inside every encrypted DATA "
                               "payload); PREFETCH_ROWS 30, 300 rows once and a commit",
                "server": server(sdu_limit=8192, tables=[table(rows=300)],
                                 nne={"encryption": "AES256", "integrity": "SHA256"}),
                "plan": plan(sdu=2097152, arraysize=30, prefetchrows=30,
                             nne={"encryption": "REQUIRED", "integrity": "REQUIRED"},
                             steps=[{"sql": "SELECT * FROM sqlnet_rows"}, {"commit": True}])})
    out.append({"name": "nne_jdbc", "client": "jdbc", "mtu": 1500,
                "description": "native network encryption with JDBC thin (ojdbc11): "
                               "oracle.net.encryption_client=REQUIRED, encryption_types_client="
                               "(AES256); a 23 server and client use the newer key schedule (IV "
                               "from the session key) and fold the logon key in after O5LOGON; "
                               "300 rows twice at fetch size 30, a commit",
                "server": server(release="23ai", tables=[table(rows=300)],
                                 nne={"encryption": "AES256", "integrity": None}),
                "plan": plan(arraysize=30, prefetchrows=30,
                             jdbc_properties={"oracle.net.encryption_client": "REQUIRED",
                                              "oracle.net.encryption_types_client": "(AES256)"},
                             steps=[{"sql": f"SELECT * FROM {ROWS_TABLE.lower()}", "arraysize": 30},
                                    {"sql": f"SELECT /* again */ * FROM {ROWS_TABLE.lower()}",
                                     "arraysize": 30},
                                    {"commit": True}])})
    for ver in ("1.3", "1.2"):
        out.append({"name": f"tls{ver.replace('.', '')}_demo", "client": "python", "mtu": 1500,
                    "port": TLS_PORT, "tls": {"version": ver},
                    "description": f"TCPS, TLS {ver} (secrets embedded): the bundled demo's statements "
                                   f"(a warm-up query, then array sizes {', '.join(map(str, ARRAY_SIZES))}) "
                                   f"on a {TLS_DEMO_ROWS}-row table",
                    "server": server(tables=[table(rows=TLS_DEMO_ROWS, row_time_us=lan_row_time_us(TLS_DEMO_ROWS)), warmup_table()]),
                    "plan": plan(steps=[WARMUP_STEP] +
                                 [{"sql": f"SELECT /* arraysize {n} */ * FROM {ROWS_TABLE.lower()}",
                                   "arraysize": n} for n in ARRAY_SIZES])})
    for ver in ("1.2", "1.3"):
        out.append({"name": f"tls{ver.replace('.', '')}_jdbc", "client": "jdbc", "mtu": 1500,
                    "port": TLS_PORT, "tls": {"version": ver},
                    "description": f"TCPS, TLS {ver} (secrets embedded): JDBC thin ojdbc11 (PROTOCOL=tcps, "
                                   "the CA in a PKCS12 truststore made with keytool, "
                                   "oracle.net.ssl_version pinned, oracle.net.ssl_server_dn_match on), "
                                   "jdbc_fetchsize_small's statements: a warm-up query, then "
                                   f"{TLS_JDBC_ROWS} rows at Statement.setFetchSize "
                                   + ", ".join(map(str, JDBC_FETCH_SIZES)) + JDBC_WARM,
                    "client_warmup_runs": JDBC_WARMUP_RUNS,
                    "server": server(release="23ai", tables=[table(rows=TLS_JDBC_ROWS, row_time_us=lan_row_time_us(TLS_JDBC_ROWS)), warmup_table()]),
                    "plan": plan(steps=jdbc_fetchsize_steps())})
    return out


JDBC_FETCH_SIZES = [1, 10, 50, 100, 500]
# The JDBC LAN sweeps' client first runs its whole session this many times against a second,
# uncaptured server (pipeline: client_warmup_runs): the captured session then meets a JVM whose
# JIT has compiled the driver, as an application server's long-running JVM does.  A cold JVM
# compiles in the middle of the sweep and makes a statement's time depend on where it falls.
JDBC_WARMUP_RUNS = 20
JDBC_WARM = (f"; the JVM first runs the same session {JDBC_WARMUP_RUNS} times against an "
             "uncaptured server (JIT warm, as in a long-running application server)")
TLS_JDBC_ROWS = 100          # the TCPS JDBC sweep and its plain-TCP twin jdbc_fetchsize_small


def jdbc_fetchsize_steps() -> list[dict]:
    return [WARMUP_STEP] + [{"sql": f"SELECT /* fetch size {n} */ * FROM {ROWS_TABLE.lower()}", "arraysize": n}
                            for n in JDBC_FETCH_SIZES]


# the database id of cookie_23ai_jdbc's ACCEPT (ojdbc keys its cookie cache on it): any
# non-blank 16 bytes; these are a version-4 UUID written for this scenario
COOKIE_DATABASE_ID = "5f0c3a9e6b2d4c71a8e3d2b4c6f1e907"


def jdbc_scenarios() -> list[dict]:
    """JDBC thin (ojdbc11 and ojdbc8 23.26): fetch size sweep, defaultRowPrefetch, a mid-fetch
    error, DML.  JDBC ties the execute's prefetch to the fetch size."""
    sel = f"SELECT * FROM {ROWS_TABLE.lower()}"
    return [
        {"name": "jdbc_fetchsize_sweep", "client": "jdbc", "mtu": 1500,
         "description": "JDBC thin (ojdbc11): one session, a warm-up query on a 20-row table, then "
                        "a 500-row table fetched with Statement.setFetchSize " + ", ".join(map(str, JDBC_FETCH_SIZES))
                        + JDBC_WARM,
         "client_warmup_runs": JDBC_WARMUP_RUNS,
         "server": server(release="23ai", tables=[table(rows=500, row_time_us=lan_row_time_us(500)), warmup_table()]),
         "plan": plan(steps=jdbc_fetchsize_steps())},
        {"name": "jdbc_fetchsize_small", "client": "jdbc", "mtu": 1500,
         "description": f"JDBC thin (ojdbc11), plain TCP twin of tls12_jdbc / tls13_jdbc: a warm-up "
                        f"query, then a {TLS_JDBC_ROWS}-row table fetched with Statement.setFetchSize "
                        + ", ".join(map(str, JDBC_FETCH_SIZES)) + JDBC_WARM,
         "client_warmup_runs": JDBC_WARMUP_RUNS,
         "server": server(release="23ai", tables=[table(rows=TLS_JDBC_ROWS, row_time_us=lan_row_time_us(TLS_JDBC_ROWS)), warmup_table()]),
         "plan": plan(steps=jdbc_fetchsize_steps())},
        {"name": "jdbc_default_prefetch", "client": "jdbc", "mtu": 1500,
         "description": "JDBC thin: connection property oracle.jdbc.defaultRowPrefetch 25, no "
                        "setFetchSize (the execute and every fetch ask 25 rows)",
         "server": server(release="19", tables=[table(rows=300)]),
         "plan": plan(default_row_prefetch=25, arraysize=25, prefetchrows=25,
                      steps=[{"sql": sel}, {"commit": True}])},
        {"name": "jdbc_error_midfetch", "client": "jdbc", "mtu": 1500,
         "description": "JDBC thin, fetch size 100: ORA-01722 at row 250 (BREAK/RESET markers, "
                        "OER with the error; JDBC then sends OCANA)",
         "server": server(release="23ai", tables=[table(name="SQLNET_BAD", error_at_row=250,
                                                        error_code=1722, rows=400)]),
         "plan": plan(arraysize=100, steps=[{"sql": "SELECT * FROM sqlnet_bad"}])},
        {"name": "jdbc_dml", "client": "jdbc", "mtu": 1500,
         "description": "JDBC thin against 19: query, INSERT (rowid in the OER, DML row counts in "
                        "the RPA), UPDATE of 5,000,000,123 rows (ub8 row count), ORA-00942 with its "
                        "error position, commit",
         "server": server(release="19", tables=[table(rows=150), table(name="SQLNET_HUGE", rows=5,
                                                                        dml_rowcount=5_000_000_123)]),
         "plan": plan(arraysize=50, steps=DML_STEPS)},
        {"name": "cookie_23ai_jdbc", "client": "jdbc", "mtu": 1500,
         "description": "JDBC thin (ojdbc11) against 23ai whose ACCEPT carries the same database "
                        "id on every connection: two sessions one after the other in one JVM; the "
                        "second sends PRO, the connection cookie (TTC message 30, the first "
                        "session's PRO reply), DTY and OSESSKEY in one request, answered by PRO + "
                        "DTY + the OSESSKEY reply; each session queries 120 rows and commits",
         "server": server(release="23ai", database_uuid=COOKIE_DATABASE_ID, tables=[table(rows=120)]),
         "plan": plan(arraysize=50, sessions=2, sessions_serial=True,
                      steps=[{"sql": sel}, {"commit": True}])},
        {"name": "jdbc8_basic", "client": "jdbc8", "mtu": 1500,
         "description": "JDBC thin ojdbc8 (Java 8 API) against 21: fetch size 40",
         "server": server(release="21", tables=[table(rows=200)]),
         "plan": plan(arraysize=40, steps=[{"sql": sel}, {"ping": True}])},
    ]


DML_STEPS = [{"sql": f"SELECT * FROM {ROWS_TABLE.lower()}"},
             {"sql": f"INSERT INTO {ROWS_TABLE.lower()} (id) VALUES (1)", "dml": True},
             {"sql": "UPDATE sqlnet_huge SET id = id + 1", "dml": True},
             {"sql": "SELECT * FROM sqlnet_missing"},
             {"commit": True}]

# which client speaks which release (python-oracledb and node-oracledb thin need 12.1+)
RELEASE_CLIENTS = {"11.2": ["goora", "jdbc"], "12.1": ["python"], "19": ["python", "node", "goora", "jdbc"],
                   "23ai": ["python", "node", "goora", "jdbc"]}


def release_scenarios() -> list[dict]:
    """Each client against each server release it supports: the execute returns its first
    rows (prefetch = array size) then RPA + OER with the last row's rowid, fetches follow; DML
    where the driver reports it (python, JDBC); an unknown table (ORA-00942, error position)."""
    out = []
    for rel, clients in RELEASE_CLIENTS.items():
        for client in clients:
            steps = [{"sql": f"SELECT /* {client} {rel} */ * FROM {ROWS_TABLE.lower()}"}]
            if client in ("python", "jdbc"):
                steps += DML_STEPS[1:3]
            steps += [{"sql": "SELECT * FROM sqlnet_missing"}, {"commit": True}]
            out.append({"name": f"release_{rel.replace('.', '')}_{client}", "client": client, "mtu": 1500,
                        "description": f"{client} against a {rel} server (TNS, field version, verifier "
                                       "as that release): execute returning rows, fetches, DML, ORA-00942",
                        "server": server(release=rel, sdu_limit=8192,
                                         tables=[table(rows=230),
                                                 table(name="SQLNET_HUGE", rows=5,
                                                       dml_rowcount=5_000_000_123)]),
                        "plan": plan(sdu=8192, arraysize=50, prefetchrows=50, steps=steps)})
    return out


PLSQL_OUT = "BEGIN sqlnet_out(:1, :2, :3); END;"

# which client can run which response shape (steps in its driver)
SHAPE_CLIENTS = {"plsql": ["python", "jdbc", "goora", "node"], "returning": ["python", "jdbc"], "batch": ["python", "node", "jdbc"],
                 "implicit": ["python", "node"], "lob": ["python", "jdbc", "node"], "scroll": ["python"],
                 "long": ["python", "jdbc"],
                 "object": ["goora"]}
BATCH_ROWS = [[1], [2], [-3], [4], [-5], [6]]
SCROLLS = [["absolute", 150], ["relative", -40], ["first", 0], ["last", 0], ["absolute", 57]]


def shape_scenarios() -> list[dict]:
    """Response shapes beyond queries, each at 19 and 23ai: PL/SQL with OUT binds (an I/O
    vector, a row of out values, a REF CURSOR out bind fetched to its end) and an INSERT
    with RETURNING ... INTO (a row of return values before the RPA)."""
    out = []
    for rel in ("11.2", "19", "23ai"):
        for client in SHAPE_CLIENTS["plsql"]:
            if client not in RELEASE_CLIENTS[rel]:
                continue
            out.append({"name": f"plsql_{rel.replace('.', '')}_{client}", "client": client, "mtu": 1500,
                        "description": f"{client} against {rel}: PL/SQL block with NUMBER, VARCHAR2 and "
                                       "REF CURSOR out binds (I/O vector, out-bind row, the cursor's "
                                       "describe; its rows fetched at array size 40), INSERT ... "
                                       "RETURNING id INTO :2 (python, JDBC)" + (", two implicit result sets fetched at "
                                       "array size 25" if client in SHAPE_CLIENTS["implicit"] else ""),
                        "server": server(release=rel, sdu_limit=8192, tables=[table(rows=120)]),
                        # go-ora fetches at its PREFETCH_ROWS: 40 there too
                        "plan": plan(sdu=8192, arraysize=40, prefetchrows=40 if client == "goora" else 2, steps=[
                            {"plsql_out": PLSQL_OUT, "types": ["number", "varchar", "cursor"],
                             "arraysize": 40},
                            ] + ([{"sql": f"INSERT INTO {ROWS_TABLE.lower()} (id) VALUES (:1) RETURNING id INTO :2",
                                   "returning": True, "params": [121]}]
                                 if client in SHAPE_CLIENTS["returning"] else []) +
                            ([{"plsql_implicit": "BEGIN sqlnet_implicit; END;", "arraysize": 25}]
                             if client in SHAPE_CLIENTS["implicit"] else []) +
                            [{"commit": True}])})
        for client in SHAPE_CLIENTS["object"]:
            otype = object_type()
            out.append({"name": f"object_{rel.replace('.', '')}_{client}", "client": client, "mtu": 1500,
                        "description": f"{client} against {rel}: an object column (SQLNET_POINT: x NUMBER, "
                                       "y NUMBER, label VARCHAR2(40), every 5th label NULL); the client "
                                       "registers the type (its OID from ALL_TYPES, its attributes from "
                                       "ALL_TYPE_ATTRS), then reads 70 rows' objects at prefetch 30 (the "
                                       "describe names the type, each value is the type OID and the "
                                       "pickled image)",
                        "server": server(release=rel, sdu_limit=8192, tables=type_catalog_tables(otype) + [
                            table(name="SQLNET_POINTS", rows=70, object_type=otype,
                                  columns=[{"name": "ID", "type": "number"},
                                           {"name": "PT", "type": "object", "size": 2000}])]),
                        # not 25: go-ora takes PREFETCH_ROWS 25 as its default and sizes its
                        # fetches from the describe's max row size instead (command.go)
                        "plan": plan(sdu=8192, arraysize=30, prefetchrows=30, steps=[
                            {"register_type": otype["name"]},
                            {"sql": "SELECT id, pt FROM sqlnet_points"}, {"commit": True}])})
        for client in SHAPE_CLIENTS["object"] if rel == "19" else []:
            nums = collection_type()
            shape = object_type(name="SQLNET_SHAPE", attrs=[
                {"name": "NAME", "type": "VARCHAR2", "length": 40},
                {"name": "VERTICES", "type": nums["name"], "collection_of": "NUMBER"}])
            out.append({"name": f"object_varray_{rel.replace('.', '')}_{client}", "client": client, "mtu": 1500,
                        "description": f"{client} against {rel}: an object column whose type (SQLNET_SHAPE: "
                                       "name VARCHAR2(40), vertices SQLNET_NUMS) has a collection attribute "
                                       "(SQLNET_NUMS: VARRAY(10) OF NUMBER, 0-3 elements); the client "
                                       "registers the collection (its OID from ALL_TYPES) and the object "
                                       "type, then reads 40 rows at prefetch 30 (the collection's image "
                                       "nested in the object's)",
                        "server": server(release=rel, sdu_limit=8192,
                                         tables=type_catalog_tables(shape, [nums]) + [
                            table(name="SQLNET_SHAPES", rows=40, object_type=shape,
                                  columns=[{"name": "ID", "type": "number"},
                                           {"name": "SHAPE", "type": "object", "size": 2000}])]),
                        "plan": plan(sdu=8192, arraysize=30, prefetchrows=30, steps=[
                            {"register_type": shape["name"], "array_types": [["NUMBER", nums["name"]]]},
                            {"sql": "SELECT id, shape FROM sqlnet_shapes"}, {"commit": True}])})
        for client in SHAPE_CLIENTS["lob"] if rel != "11.2" else []:
            out.append({"name": f"lob_{rel}_{client}", "client": client, "mtu": 1500,
                        "description": f"{client} against {rel}: a query on a table with a CLOB column "
                                       "(describe, define call, rows with LOB locators), then one LOB "
                                       "read operation per row (LOB data message, amount in the RPA)",
                        "server": server(release=rel, sdu_limit=8192,
                                         tables=[table(name="SQLNET_DOCS", rows=30, columns="with_clob",
                                                       lob_chars=700)]),
                        "plan": plan(sdu=8192, arraysize=10, prefetchrows=2, steps=[
                            {"sql": "SELECT * FROM sqlnet_docs"}, {"commit": True}])})
        for client in SHAPE_CLIENTS["long"] if rel != "11.2" else []:
            out.append({"name": f"long_{rel}_{client}", "client": client, "mtu": 1500,
                        "description": f"{client} against {rel}: a query on a table with a LONG column "
                                       "(600-character values in the long length form, each followed by "
                                       "its null indicator and return code), fetch size 20",
                        "server": server(release=rel, sdu_limit=8192,
                                         tables=[table(name="SQLNET_NOTES", rows=60, columns="with_long",
                                                       row_bytes=640)]),
                        "plan": dict(plan(sdu=8192, arraysize=20, prefetchrows=20, steps=[
                            {"sql": "SELECT * FROM sqlnet_notes"}, {"commit": True}]),
                            # JDBC streams a LONG one row per round trip unless told to keep its
                            # fetch size (the streaming protocol is not scripted here)
                            **({"jdbc_properties": {"oracle.jdbc.useFetchSizeWithLongColumn": "true"}}
                               if client == "jdbc" else {}))})
        for client in SHAPE_CLIENTS["scroll"] if rel != "11.2" else []:
            out.append({"name": f"scroll_{rel}_{client}", "client": client, "mtu": 1500,
                        "description": f"{client} against {rel}: a scrollable cursor on a 200-row table "
                                       "(array size 20): scroll absolute 150, relative -40, first, last, "
                                       "absolute 57, each then one row",
                        "server": server(release=rel, sdu_limit=8192, tables=[table(rows=200)]),
                        "plan": plan(sdu=8192, arraysize=20, prefetchrows=2, steps=[
                            {"sql": f"SELECT /* scrollable */ * FROM {ROWS_TABLE.lower()}",
                             "scroll": SCROLLS}, {"commit": True}])})
        for client in SHAPE_CLIENTS["batch"] if rel != "11.2" else []:
            out.append({"name": f"batch_{rel}_{client}", "client": client, "mtu": 1500,
                        "description": f"{client} against {rel}: array INSERT of 6 rows, two of which "
                                       "violate a check constraint: with batch errors (ORA-24381, the "
                                       "errors' codes and row offsets in the OER, per-row counts in the "
                                       "RPA), then without (ORA-02290 ends the call at its row)",
                        "server": server(release=rel, sdu_limit=8192, tables=[table(rows=50)]),
                        "plan": plan(sdu=8192, arraysize=50, prefetchrows=2, steps=([
                            # JDBC has no batch-errors mode: a valid batch, then one whose
                            # third row fails (BatchUpdateException with the counts before it)
                            {"sql": f"INSERT INTO {ROWS_TABLE.lower()} (id) VALUES (:1) /* valid batch */",
                             "many": [[7], [8], [9], [10]]}] if client == "jdbc" else [
                            {"sql": f"INSERT INTO {ROWS_TABLE.lower()} (id) VALUES (:1)",
                             "many": BATCH_ROWS, "batcherrors": True, "arraydmlrowcounts": True}]) + [
                            {"sql": f"INSERT INTO {ROWS_TABLE.lower()} (id) VALUES (:1) /* no batch errors */",
                             "many": BATCH_ROWS},
                            {"commit": True}])})
    return out


def bench_scenario(rows: int = 1_000_000, sizes: list[int] | None = None) -> dict:
    sizes = sizes or BENCH_ARRAY_SIZES
    return {"name": "bench", "client": "python", "mtu": 1500, "timeout_s": 3600,
            "description": f"benchmark: {rows} rows x ~100 B fetched at array sizes "
                           + ", ".join(map(str, sizes)),
            "server": server(tables=[table(rows=rows, bvc=False)]),
            "plan": plan(steps=[{"sql": f"SELECT /* arraysize {n} */ * FROM sqlnet_rows",
                                 "arraysize": n} for n in sizes], timeout_s=3600)}


# Chatty applications (issue 36): each pattern and its fix, same data, per client family
# that can make it, two server releases, a LAN and a 50 ms WAN.  The anti-pattern's
# calls: PATTERN_CALLS (row-by-row DML: PATTERN_DML_ROWS, the captures' budget).
PATTERN_CALLS = 32
PATTERN_DML_ROWS = 16
PATTERN_SMALL_CALLS = 12      # N+1 and commit for node, JDBC, go-ora (the captures' budget)
PATTERN_RELEASES = ["19", "23ai"]
PATTERN_LINKS = {"lan": None, "wan50": 50}   # 50 ms: the handshake check holds on a loaded host
# the families whose client script makes the pattern and its fix, and on which
# (release, link) pairs: every pair for python-oracledb's N+1 and commit and for row-by-row
# DML, 19 over the WAN and 23ai over the LAN for the rest (the captures' budget)
ALL_PAIRS = [(rel, link) for rel in PATTERN_RELEASES for link in PATTERN_LINKS]
# a second release and a LAN for the others: 23ai over the LAN
SMALL_PAIRS = [("19", "wan50"), ("23ai", "lan")]
PATTERN_FAMILIES = {
    "nplus1": {"python": ALL_PAIRS, "node": SMALL_PAIRS, "jdbc": SMALL_PAIRS, "goora": SMALL_PAIRS},
    # JDBC: setAutoCommit(false), commit() after each statement (ojdbc sends its commit
    # call only when the server's end-of-call status says a transaction is open: the
    # server's txn_status); go-ora: a transaction per statement (Begin, Exec, Commit)
    "commit": {"python": ALL_PAIRS, "node": SMALL_PAIRS, "jdbc": SMALL_PAIRS, "goora": SMALL_PAIRS},
    "rowbyrow": {c: ALL_PAIRS for c in ("python", "node", "jdbc", "goora")},
    # go-ora: db.Ping() before each query, a bare OPING; its cursor closes are OPINGs
    # too (one after each query, carrying the close: part of the query, docs/time.md)
    "ping": {c: SMALL_PAIRS for c in ("python", "node", "jdbc", "goora")},
    # a LOB read per row: python-oracledb and node-oracledb read CLOB locators one by one;
    # JDBC with its LOB prefetch off and go-ora with LOB FETCH=POST too (pattern_plan)
    "lob": {c: SMALL_PAIRS for c in ("python", "node", "jdbc", "goora")},
}
CLIENT_DRIVER = {"python": "python-oracledb", "node": "node-oracledb", "jdbc": "JDBC thin",
                 "goora": "go-ora"}


def pattern_calls(pattern: str, client: str = "python") -> int:
    if pattern == "rowbyrow":
        return PATTERN_DML_ROWS
    return PATTERN_CALLS if client == "python" and pattern not in ("ping", "lob") else PATTERN_SMALL_CALLS


def pattern_steps(pattern: str, fixed: bool, client: str = "python") -> tuple[list[dict], list[dict]]:
    """(steps, tables) of one pattern (or its fix)."""
    n = pattern_calls(pattern, client)
    ins = {"sql": "INSERT INTO sqlnet_rows (id) VALUES (:1)", "dml": True}
    one = "SELECT /* one row */ * FROM sqlnet_one"
    if pattern == "nplus1":
        if fixed:   # the same rows in one query (an IN-list, a join)
            return [{"sql": one, "arraysize": 100}], [table(name="SQLNET_ONE", rows=n)]
        return [{"sql": one, "arraysize": 100, "repeat": n}], [table(name="SQLNET_ONE", rows=1)]
    if pattern == "rowbyrow":
        # one INSERT per row on the client's cached statement (an OREEXECUTE, or JDBC's
        # OALL8 on the open cursor) against the rows in one array DML call
        if fixed:
            return [{"sql": ins["sql"], "many": [[i] for i in range(1, n + 1)]}], [table(rows=10)]
        return [dict(ins, binds=[["NUMBER", str(i)]]) for i in range(1, n + 1)], [table(rows=10)]
    if pattern == "commit":
        # one statement per row, each its own text (the fix keeps them: only the commits go);
        # node-oracledb's client script runs a DML step as one with (no) binds
        extra = {"binds": []} if client == "node" else {}
        dml = [dict({"sql": f"INSERT INTO sqlnet_rows (id) VALUES ({i})", "dml": True}, **extra)
               for i in range(1, n + 1)]
        # go-ora: outside a transaction it commits on execute (no commit call), so each
        # statement is a transaction of its own (Begin, Exec, Commit); the fix one for all
        begin = [{"begin": True}] if client == "goora" else []
        if fixed:
            return begin + dml + [{"commit": True}], [table()]
        return [x for d in dml for x in begin + [d, {"commit": True}]], [table()]
    if pattern == "lob":
        # a CLOB per row read by its locator, one LOB read call each (as lob_19_python);
        # the fix: the text with the row (python-oracledb fetch_lobs=False, node-oracledb
        # fetchAsString: the client defines the column as LONG), same rows
        docs = [table(name="SQLNET_DOCS", rows=n, columns="with_clob", lob_chars=700)]
        q = {"sql": "SELECT * FROM sqlnet_docs", "arraysize": 100}
        if client in ("jdbc", "goora"):
            # go-ora: the anti-pattern's LOB FETCH=POST keeps the locators and reads each
            # LOB with a call of its own; the fix is its default (PRE: the CLOB defined as
            # LONG, the text with the row).  JDBC: the anti-pattern turns LOB prefetch off (pattern_plan), so each CLOB
            # comes as a bare locator and getString reads it (a get-chunk-size and a read
            # call each); the fix is the default prefetch, the text with the row
            fix = dict(q, lob_columns=["DOC"]) if client == "goora" else q
            return [fix if fixed else dict(q, lob_locators=True), {"commit": True}], docs
        return [dict(q, fetch_lobs=False, lob_columns=["DOC"]) if fixed else q, {"commit": True}], docs
    if pattern == "ping":
        # a ping (an OPING: python's and node's connection.ping(), JDBC's Connection.isValid(),
        # go-ora's db.Ping() through database/sql: the driver's Ping, an OPING)
        # before each piece of work, each query its own text (no N+1);
        # the fix leaves the pings out (a pool's ping interval)
        work = [{"sql": f"SELECT /* work {i} */ * FROM sqlnet_one", "arraysize": 100} for i in range(1, n + 1)]
        if fixed:
            return work, [table(name="SQLNET_ONE", rows=1)]
        ping = {"ping": "isValid"} if client == "jdbc" else {"ping": True}
        return [x for w in work for x in (ping, w)], [table(name="SQLNET_ONE", rows=1)]
    raise ValueError(pattern)


def pattern_plan(pattern: str, fixed: bool, client: str) -> dict:
    """Plan keys of one pattern's client run beyond its steps: JDBC's LOB prefetch off
    (defaultLobPrefetchSize -1) for its LOB anti-pattern; the fix keeps the default."""
    if (pattern, client, fixed) == ("lob", "jdbc", False):
        return {"jdbc_properties": {"oracle.jdbc.defaultLobPrefetchSize": "-1"}}
    if (pattern, client, fixed) == ("lob", "goora", False):
        return {"lob_fetch": "POST"}
    return {}


def pattern_scenarios() -> list[dict]:
    out = []
    for pattern, families in PATTERN_FAMILIES.items():
        for client, pairs in families.items():
            for rel, link in pairs:
                rtt = PATTERN_LINKS[link]
                for fixed in (False, True):
                    steps, tables = pattern_steps(pattern, fixed, client)
                    sc = {"name": f"pattern_{pattern}{'_fix' if fixed else ''}_{rel}_{link}_{client}",
                          "client": client, "mtu": 1500, "pattern": pattern, "pattern_fixed": fixed,
                          "pattern_calls": pattern_calls(pattern, client),
                          "description": f"chatty application (issue 36): {pattern}"
                                         f"{' fixed' if fixed else ''}, {CLIENT_DRIVER[client]} "
                                         f"against {rel}, {link}",
                          "server": server(release=rel, sdu_limit=8192, tables=tables,
                                           **({"txn_status": True} if pattern == "commit" and
                                              client in ("jdbc", "goora") else {})),
                          # go-ora fetches PREFETCH_ROWS (the plan's prefetchrows) per call:
                          # the fix's one query (and the LOB query) brings its rows in one
                          # call, as the others'
                          "plan": plan(sdu=8192, arraysize=100, steps=steps,
                                       prefetchrows=100 if client == "goora" and pattern in ("nplus1", "lob") else 2,
                                       **pattern_plan(pattern, fixed, client))}
                    if rtt:
                        sc["netem"] = wan(rtt)
                    out.append(sc)
    return out


CI_SCENARIOS = ["arraysize_100", "error_midfetch", "node_basic", "goora_basic"]


def by_name() -> dict:
    return {s["name"]: s for s in scenarios()}
