#!/usr/bin/env python3
"""python-oracledb (thin mode) client driver for the capture generator.

Usage: client.py '<json plan>'
The plan gives the server address, credentials, requested SDU and a list of
steps; the driver runs them with the real python-oracledb thin driver and
prints ONE JSON line with its settings and the rows it actually received.

Plan keys: host, port, service, user, password, sdu, arraysize, prefetchrows,
sessions (concurrent connections, default 1), steps: list of
  {"sql": "...", "arraysize": n, "prefetchrows": m, "repeat": k}
  {"sql": "UPDATE ...", "dml": true} (reports rowcount and lastrowid)
  {"sql": "INSERT ... RETURNING id INTO :2", "returning": true, "params": [5]}
      (reports rowcount and the returned values)
  {"plsql_out": "begin sqlnet_out(:1, :2, :3); end;", "types": ["number", "varchar", "cursor"]}
      (reports the out values; a REF CURSOR is fetched to its end at the step's arraysize)
  {"sql": "INSERT ... VALUES (:1, :2)", "dml": true, "binds": [["NUMBER", "123.45"], ["DATE",
      "2024-02-29 13:45:07"], ...]} (typed input binds: NUMBER, VARCHAR2, CHAR, NVARCHAR2,
      BINARY_FLOAT, BINARY_DOUBLE, DATE, TIMESTAMP, RAW (hex), NULL; reports each bound value
      as the driver got it, as text: "bind_values")
  a query step with "report_values": true reports every value it fetched, row by row, as
      text (value_text below), NUMBER columns fetched as Decimal ("values")
  {"commit": true} | {"ping": true}
  a query step may add "sleep_before_ms": n (sleep before its execute) and
  "sleep_after_fetch": {"after": k, "ms": n} (sleep after its k-th fetchmany);
  the measured sleeps go in the report (slept_before_ms, slept_after_fetch)
"""

import datetime
import decimal
import json
import ssl
import sys
import threading
import time

import oracledb


BIND_TYPES = {"NUMBER": ("DB_TYPE_NUMBER", decimal.Decimal), "VARCHAR2": ("DB_TYPE_VARCHAR", str),
              "CHAR": ("DB_TYPE_CHAR", str), "NVARCHAR2": ("DB_TYPE_NVARCHAR", str),
              "BINARY_FLOAT": ("DB_TYPE_BINARY_FLOAT", float),
              "BINARY_DOUBLE": ("DB_TYPE_BINARY_DOUBLE", float),
              "DATE": ("DB_TYPE_DATE", datetime.datetime.fromisoformat),
              "TIMESTAMP": ("DB_TYPE_TIMESTAMP", datetime.datetime.fromisoformat),
              "RAW": ("DB_TYPE_RAW", bytes.fromhex), "NULL": ("DB_TYPE_VARCHAR", lambda v: None)}


def typed_binds(binds):
    """(input sizes, values, values as text) of a step's typed binds."""
    sizes, values, text = [], [], []
    for kind, raw in binds:
        dbtype, conv = BIND_TYPES[kind]
        v = conv(raw)
        sizes.append(getattr(oracledb, dbtype))
        values.append(v)
        if v is None:
            text.append("NULL")
        elif isinstance(v, datetime.datetime):
            text.append(v.isoformat(sep=" "))
        elif isinstance(v, bytes):
            text.append(v.hex())
        elif isinstance(v, float):
            text.append(repr(v))
        else:
            text.append(str(v))
    return sizes, values, text


def decimal_numbers(cursor, metadata):
    """NUMBER columns fetched as Decimal: their exact value, not a float's."""
    if metadata.type_code is oracledb.DB_TYPE_NUMBER:
        return cursor.var(decimal.Decimal, arraysize=cursor.arraysize)
    return None


def value_text(v):
    """A fetched value as text, as this driver gave it: NULL, decimal text, repr of a float,
    ISO date and time, hex of bytes, TRUE/FALSE, an interval's parts (a LOB: its type and
    the length of its content, read by the caller)."""
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, datetime.datetime):
        return v.isoformat(sep=" ")
    if isinstance(v, datetime.timedelta):
        return f"interval_ds {v.days} {v.seconds} {v.microseconds}"
    if isinstance(v, bytes):
        return v.hex()
    if type(v).__name__ == "IntervalYM":
        return f"interval_ym {v.years} {v.months}"
    return str(v)


def run_session(plan, idx, out):
    tls = plan.get("tls")
    proto = "tcps" if tls else "tcp"
    dsn = (f"(DESCRIPTION=(SDU={plan['sdu']})(ADDRESS=(PROTOCOL={proto})(HOST={plan['host']})"
           f"(PORT={plan['port']}))(CONNECT_DATA=(SERVICE_NAME={plan.get('service', 'freepdb1')})))")
    res = {"session": idx, "statements": [], "rows_received": 0, "errors": []}
    extra = {}
    if tls:
        # TCPS without a wallet: an SSL context that trusts the generator's throwaway CA
        ctx = ssl.create_default_context(cafile=tls["ca"])
        ver = ssl.TLSVersion.TLSv1_3 if str(tls.get("version")) == "1.3" else ssl.TLSVersion.TLSv1_2
        ctx.minimum_version = ctx.maximum_version = ver
        extra = {"ssl_context": ctx, "ssl_server_dn_match": False}
    conn = oracledb.connect(user=plan.get("user", "scott"), password=plan.get("password", "tiger"),
                            dsn=dsn, **extra)
    res["server_version"] = conn.version
    try:
        for step in plan.get("steps", []):
            if step.get("commit"):
                conn.commit()
                res["statements"].append({"action": "commit"})
                continue
            if step.get("ping"):
                conn.ping()
                res["statements"].append({"action": "ping"})
                continue
            if step.get("plsql_out"):
                cur = conn.cursor()
                entry = {"plsql": step["plsql_out"], "out": [], "error": None}
                kinds = step.get("types", [])
                binds = []
                for t in kinds:
                    if t == "number":
                        binds.append(cur.var(int))
                    elif t == "varchar":
                        binds.append(cur.var(str, 100))
                    else:
                        binds.append(conn.cursor())
                try:
                    cur.execute(step["plsql_out"], binds)
                    for t, b in zip(kinds, binds):
                        if t == "cursor":
                            b.arraysize = int(step.get("arraysize", plan.get("arraysize", 100)))
                            n = 0
                            while True:
                                rows = b.fetchmany(b.arraysize)
                                if not rows:
                                    break
                                n += len(rows)
                            entry["out"].append({"cursor_rows": n})
                        else:
                            entry["out"].append(b.getvalue())
                except oracledb.Error as exc:
                    err = exc.args[0]
                    entry["error"] = getattr(err, "full_code", str(err))
                    res["errors"].append(entry["error"])
                res["statements"].append(entry)
                cur.close()
                continue
            if step.get("plsql_implicit"):
                # implicit result sets (DBMS_SQL.RETURN_RESULT): fetch each one to its end
                cur = conn.cursor()
                entry = {"plsql": step["plsql_implicit"], "implicit": [], "error": None}
                try:
                    cur.execute(step["plsql_implicit"])
                    for child in cur.getimplicitresults():
                        child.arraysize = int(step.get("arraysize", plan.get("arraysize", 100)))
                        n = 0
                        while True:
                            rows = child.fetchmany(child.arraysize)
                            if not rows:
                                break
                            n += len(rows)
                        entry["implicit"].append(n)
                except oracledb.Error as exc:
                    err = exc.args[0]
                    entry["error"] = getattr(err, "full_code", str(err))
                    res["errors"].append(entry["error"])
                res["statements"].append(entry)
                cur.close()
                continue
            if step.get("scroll"):
                # scrollable cursor: each scroll (mode, offset) then one fetchone
                cur = conn.cursor(scrollable=True)
                cur.arraysize = int(step.get("arraysize", plan.get("arraysize", 100)))
                cur.prefetchrows = int(step.get("prefetchrows", plan.get("prefetchrows", 2)))
                entry = {"sql": step["sql"], "scrollable": True, "arraysize": cur.arraysize,
                         "prefetchrows": cur.prefetchrows, "rows": 0, "positions": [], "error": None}
                try:
                    cur.execute(step["sql"])
                    for mode, offset in step["scroll"]:
                        cur.scroll(offset, mode=mode)
                        row = cur.fetchone()
                        entry["positions"].append([mode, offset, row[0] if row else None, cur.rowcount])
                except oracledb.Error as exc:
                    err = exc.args[0]
                    entry["error"] = getattr(err, "full_code", str(err))
                    res["errors"].append(entry["error"])
                res["statements"].append(entry)
                cur.close()
                continue
            if step.get("many") is not None:
                # array DML: executemany with batch errors and per-row counts
                cur = conn.cursor()
                entry = {"sql": step["sql"], "dml": True, "many": len(step["many"]), "rows": 0, "error": None}
                try:
                    cur.executemany(step["sql"], step["many"], batcherrors=bool(step.get("batcherrors")),
                                    arraydmlrowcounts=bool(step.get("arraydmlrowcounts")))
                    entry["rowcount"] = cur.rowcount
                    entry["batch_errors"] = [[e.code, e.offset] for e in cur.getbatcherrors() or []]
                    if step.get("arraydmlrowcounts"):
                        entry["dml_row_counts"] = cur.getarraydmlrowcounts()
                except oracledb.Error as exc:
                    err = exc.args[0]
                    entry["error"] = getattr(err, "full_code", str(err))
                    entry["rowcount"] = cur.rowcount
                    res["errors"].append(entry["error"])
                res["statements"].append(entry)
                cur.close()
                continue
            if step.get("returning"):
                cur = conn.cursor()
                ret_var = cur.var(int)
                entry = {"sql": step["sql"], "dml": True, "rows": 0, "error": None}
                try:
                    cur.execute(step["sql"], list(step.get("params", [])) + [ret_var])
                    entry["rowcount"] = cur.rowcount
                    entry["returned"] = ret_var.getvalue()
                except oracledb.Error as exc:
                    err = exc.args[0]
                    entry["error"] = getattr(err, "full_code", str(err))
                    res["errors"].append(entry["error"])
                res["statements"].append(entry)
                cur.close()
                continue
            if step.get("dml"):
                # DML: the row count and rowid come from the server's final OER
                cur = conn.cursor()
                entry = {"sql": step["sql"], "dml": True, "rows": 0, "error": None}
                try:
                    if step.get("binds"):
                        sizes, values, entry["bind_values"] = typed_binds(step["binds"])
                        entry["bind_types"] = [k for k, _ in step["binds"]]
                        cur.setinputsizes(*sizes)
                        cur.execute(step["sql"], values)
                    else:
                        cur.execute(step["sql"])
                    entry["rowcount"] = cur.rowcount
                    entry["lastrowid"] = cur.lastrowid
                except oracledb.Error as exc:
                    err = exc.args[0]
                    entry["error"] = getattr(err, "full_code", str(err))
                    entry["error_message"] = getattr(err, "message", str(err))
                    res["errors"].append(entry["error"])
                res["statements"].append(entry)
                cur.close()
                continue
            for _ in range(int(step.get("repeat", 1))):
                cur = conn.cursor()
                cur.arraysize = int(step.get("arraysize", plan.get("arraysize", 100)))
                cur.prefetchrows = int(step.get("prefetchrows", plan.get("prefetchrows", 2)))
                entry = {"sql": step["sql"], "arraysize": cur.arraysize,
                         "prefetchrows": cur.prefetchrows, "rows": 0, "error": None}
                n = 0
                nbytes = 0
                # the application's own pauses (issue 23): idle before the
                # statement, a stall after its k-th fetchmany; measured here
                if step.get("sleep_before_ms"):
                    t0 = time.perf_counter()
                    time.sleep(float(step["sleep_before_ms"]) / 1000.0)
                    entry["slept_before_ms"] = (time.perf_counter() - t0) * 1000.0
                stall = step.get("sleep_after_fetch")
                fetches = 0
                try:
                    # the client's own clock (time.time(): the capture's clock on this
                    # host) around the statement: just before the execute call and just
                    # after the last fetch call returned, so that a test can check the
                    # elapsed time the capture gives against what the client lived
                    entry["t_execute"] = time.time()
                    report = step.get("report_values")
                    if report:
                        entry["values"] = []
                        cur.outputtypehandler = decimal_numbers
                    # fetch_lobs False: the LOB columns come as strings with the rows
                    # (python-oracledb defines them as LONG: no LOB read calls)
                    if step.get("fetch_lobs") is False:
                        cur.execute(step["sql"], fetch_lobs=False)
                        entry["fetch_lobs"] = False
                    else:
                        cur.execute(step["sql"])
                    lob_chars = 0
                    while True:
                        rows = cur.fetchmany(cur.arraysize)
                        entry["t_fetched"] = time.time()
                        fetches += 1
                        if stall and fetches == int(stall["after"]):
                            t0 = time.perf_counter()
                            time.sleep(float(stall["ms"]) / 1000.0)
                            entry["slept_after_fetch"] = {"after": fetches,
                                                          "ms": (time.perf_counter() - t0) * 1000.0}
                        if not rows:
                            break
                        n += len(rows)
                        if report:
                            for r in rows:
                                texts = []
                                for v in r:
                                    if isinstance(v, oracledb.LOB):
                                        text = v.read()        # one LOB read operation each
                                        lob_chars += len(text)
                                        texts.append(f"LOB {v.type.name} {len(text)}")
                                        nbytes += len(text)
                                    else:
                                        texts.append(value_text(v))
                                        nbytes += len(str(v))
                                entry["values"].append(texts)
                            continue
                        for r in rows:
                            for v in r:
                                if isinstance(v, oracledb.LOB):
                                    v = v.read()           # one LOB read operation each
                                    lob_chars += len(v)
                                    entry["lob_reads"] = entry.get("lob_reads", 0) + 1
                                nbytes += len(str(v))
                            if step.get("fetch_lobs") is False:
                                # the CLOB (last column) with the row, no LOB read
                                entry["lob_text_chars"] = entry.get("lob_text_chars", 0) + len(r[-1] or "")
                    if lob_chars:
                        entry["lob_chars"] = lob_chars
                    entry["rows"] = n
                    entry["value_chars"] = nbytes
                except oracledb.Error as exc:
                    err = exc.args[0]
                    entry["error"] = getattr(err, "full_code", str(err))
                    entry["error_message"] = getattr(err, "message", str(err))
                    # rows the driver had received from the server before the error
                    entry["rows"] = max(n, cur.rowcount or 0)
                    entry["rows_consumed_before_error"] = n
                    res["errors"].append(entry["error"])
                res["rows_received"] += entry["rows"]
                res["statements"].append(entry)
                if step.get("keep_open") is not True:
                    cur.close()
    finally:
        conn.close()
    out[idx] = res


def main():
    plan = json.loads(sys.argv[1])
    nsess = int(plan.get("sessions", 1))
    out = [None] * nsess
    errors = []

    def target(i):
        try:
            run_session(plan, i, out)
        except Exception as exc:  # report, do not hide
            import traceback
            errors.append(f"session {i}: {exc!r} " + traceback.format_exc(limit=-3).replace("\n", " | "))

    threads = [threading.Thread(target=target, args=(i,)) for i in range(nsess)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=float(plan.get("timeout_s", 600)))
    report = {
        "driver": "python-oracledb", "driver_version": oracledb.__version__, "thin": True,
        "arraysize": plan.get("arraysize", 100), "prefetchrows": plan.get("prefetchrows", 2),
        "sdu_requested": plan["sdu"], "sessions": [s for s in out if s],
        "rows_received": sum(s["rows_received"] for s in out if s),
        "statements": [st["sql"] for s in out if s for st in s["statements"] if "sql" in st],
        "fatal_errors": errors,
    }
    print(json.dumps(report))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
