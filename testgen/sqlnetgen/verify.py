"""Self-consistency checks of a generated capture + manifest.

Everything here compares numbers that come from *different* sources: the
client's own report (settings, rows it received), the server's counters, and
the capture read with tshark core fields (tcp.len) only.
"""

from __future__ import annotations

import json
from pathlib import Path


def statement_settings(manifest: dict) -> list[dict]:
    """Per executed statement of the client report: sql, arraysize, prefetchrows."""
    rep = manifest["client"]["report"]
    reps = rep if isinstance(rep, list) else [rep]
    out = []
    for r in reps:
        for s in r.get("sessions", []):
            out.extend(st for st in s.get("statements", []) if "sql" in st)
    return out


def verify(manifest: dict, pcap: Path | None = None) -> list[str]:
    problems: list[str] = []
    conns = manifest["connections"]
    client = manifest["client"]
    if not conns:
        return ["no connections recorded"]
    # 1. rows: client report vs server counters (only statements the client ran
    #    itself: drivers may run internal queries, e.g. go-ora's SYSTIMESTAMP)
    reports = client.get("report")
    reports = reports if isinstance(reports, list) else [reports or {}]
    # a scrollable cursor's fetches bring buffers of rows the client does not all read:
    # checked by position below instead
    scroll_sql = {st["sql"] for rep in reports for sess in rep.get("sessions", [])
                  for st in sess.get("statements", []) if st.get("scrollable")}
    client_sql = set(client.get("statements") or []) - scroll_sql
    sent = sum(r["response"]["rows_sent"] for c in conns for r in c["requests"]
               if r.get("sql") in client_sql)
    if client["rows_received"] != sent:
        problems.append(f"client rows_received {client['rows_received']} != server rows_sent {sent}")
    # 1b. DML: the row count (and the rowid, where the driver exposes it) the client read
    #     from the server's OER equal what the server put there
    server_dml = {}
    for c in conns:
        for r in c["requests"]:
            if r["response"].get("rowid") is not None or (r.get("sql") and r["response"].get("rowcount")
                                                           and not r["response"].get("rows_sent")):
                server_dml.setdefault(r["sql"], []).append(r["response"])
    # the k-th execution of a text the client reports against the server's k-th answer
    # to it (a statement executed again on its cursor: row-by-row DML, issue 36)
    taken = {}
    for rep in reports:
        for sess in rep.get("sessions", []):
            for stmt in sess.get("statements", []):
                if not stmt.get("dml") or stmt.get("error"):
                    continue
                k = taken[stmt["sql"]] = taken.get(stmt["sql"], -1) + 1
                srv = server_dml.get(stmt["sql"], [])[k:] or server_dml.get(stmt["sql"], [])[:1]
                if not srv:
                    problems.append(f"DML {stmt['sql']!r}: no server response recorded")
                    continue
                if stmt.get("rowcount") != srv[0]["rowcount"]:
                    problems.append(f"DML {stmt['sql']!r}: client rowcount {stmt.get('rowcount')} "
                                    f"!= server {srv[0]['rowcount']}")
                if "lastrowid" in stmt and stmt["lastrowid"] != srv[0].get("rowid"):
                    problems.append(f"DML {stmt['sql']!r}: client lastrowid {stmt['lastrowid']} "
                                    f"!= server {srv[0].get('rowid')}")
                if "batch_errors" in stmt and stmt["batch_errors"] != srv[0].get("batch_errors", []):
                    problems.append(f"DML {stmt['sql']!r}: client batch errors {stmt['batch_errors']} "
                                    f"!= server {srv[0].get('batch_errors')}")
                if "returned" in stmt and stmt["returned"] != srv[0].get("returned"):
                    problems.append(f"DML {stmt['sql']!r}: client returned {stmt['returned']} "
                                    f"!= server {srv[0].get('returned')}")
    # 1e. scrollable cursor: the row the client read after each scroll is the one at the
    #     position the scroll names (python-oracledb's modes; the ID column is the row number)
    nrows = {t["name"]: t.get("rows", 1000) for t in manifest.get("server", {}).get("tables", [])}
    for rep in reports:
        for sess in rep.get("sessions", []):
            for st in sess.get("statements", []):
                if not st.get("scrollable") or st.get("error"):
                    continue
                total = nrows.get(st["sql"].upper().split(" FROM ")[1].split()[0], 0)
                at = 0
                for mode, offset, got, rowcount in st["positions"]:
                    at = {"absolute": offset, "relative": at + offset, "first": 1, "last": total}[mode]
                    if got != at or rowcount != at:
                        problems.append(f"scroll {mode} {offset}: client read row {got} (rowcount {rowcount}), "
                                        f"expected {at}")
    # 1c. PL/SQL out binds: the values the client read equal what the server sent; the
    #     rows it fetched from a REF CURSOR out bind equal the rows the server sent on it
    server_plsql = {}
    ref_rows = {}
    for c in conns:
        for r in c["requests"]:
            if "out_binds" in r["response"]:
                server_plsql.setdefault(r["sql"], []).append(r["response"]["out_binds"])
            if "implicit_results" in r["response"]:
                server_plsql.setdefault(r["sql"], []).append(r["response"]["implicit_results"])
            if r.get("sql", "") and r["sql"].startswith(("REF CURSOR", "IMPLICIT RESULT")):
                ref_rows[r["cursor"]] = ref_rows.get(r["cursor"], 0) + r["response"]["rows_sent"]
    for rep in reports:
        for sess in rep.get("sessions", []):
            for stmt in sess.get("statements", []):
                if "plsql" not in stmt or stmt.get("error"):
                    continue
                srv = server_plsql.get(stmt["plsql"], [])
                if not srv:
                    problems.append(f"PL/SQL {stmt['plsql']!r}: no server response recorded")
                    continue
                if "implicit" in stmt:
                    for k, (got, want) in enumerate(zip(stmt["implicit"], srv[0])):
                        if got != want["rows"] or ref_rows.get(want["cursor"], 0) != want["rows"]:
                            problems.append(f"implicit result {k + 1}: client fetched {got}, server table "
                                            f"{want['rows']} rows, sent {ref_rows.get(want['cursor'])}")
                    if len(stmt["implicit"]) != len(srv[0]):
                        problems.append(f"implicit results: client {len(stmt['implicit'])} != server {len(srv[0])}")
                    continue
                for k, (got, want) in enumerate(zip(stmt["out"], srv[0])):
                    if isinstance(want, dict):
                        if got.get("cursor_rows") != want["rows"] or \
                                ref_rows.get(want["cursor"], 0) != want["rows"]:
                            problems.append(f"PL/SQL out bind {k + 1}: client fetched {got}, server "
                                            f"table {want['rows']} rows, sent {ref_rows.get(want['cursor'])}")
                    elif got != want:
                        problems.append(f"PL/SQL out bind {k + 1}: client {got!r} != server {want!r}")
    # 1f. object columns: the attribute values the client read, row by row, equal those of
    #     the objects the server sent for that statement (NUMBER attributes compared as text:
    #     go-ora gives their text), and the client's type registration succeeded
    server_objs = {}
    for c in conns:
        for r in c["requests"]:
            if "objects" in r["response"]:
                server_objs.setdefault(r.get("sql"), []).extend(r["response"]["objects"])

    def _text(row):
        return [{k: None if v is None else [str(x) for x in v] if isinstance(v, list) else str(v)
                 for k, v in obj.items()} for obj in row]
    for rep in reports:
        for sess in rep.get("sessions", []):
            for stmt in sess.get("statements", []):
                if str(stmt.get("action", "")).startswith("register_type") and stmt.get("error"):
                    problems.append(f"{stmt['action']}: {stmt['error']}")
                if "objects" not in stmt and stmt.get("sql") not in server_objs:
                    continue
                if stmt.get("error") or "sql" not in stmt:
                    continue
                got = [_text(row) for row in stmt.get("objects") or []]
                want = [_text(row) for row in server_objs.get(stmt["sql"], [])]
                if got != want:
                    problems.append(f"objects of {stmt['sql']!r}: client read {len(got)} rows "
                                    f"{got[:2]}..., server sent {len(want)} {want[:2]}...")
    # 1d. LOB reads: the characters the client read equal those the server's LOB data sent
    lob_sent = sum(r["response"].get("lob_amount", 0) for c in conns for r in c["requests"]
                   if r["response"].get("lob_operation") == 2)
    lob_read = sum(st.get("lob_chars", 0) for rep in reports for sess in rep.get("sessions", [])
                   for st in sess.get("statements", []))
    if lob_read != lob_sent:
        problems.append(f"LOB characters: client read {lob_read} != server sent {lob_sent}")
    # a CLOB the client defined as LONG (fetch_lobs=False, fetchInfo): its text with the rows
    text_sent = sum(r["response"].get("long_lob_chars", 0) for c in conns for r in c["requests"])
    text_read = sum(st.get("lob_text_chars", 0) for rep in reports for sess in rep.get("sessions", [])
                    for st in sess.get("statements", []))
    if text_read != text_sent:
        problems.append(f"CLOB text with the rows: client read {text_read} != server sent {text_sent}")
    for c in conns:
        st = c["stats"]
        sdu = c["negotiated_sdu"]
        rs = sum(r["response"]["rows_sent"] for r in c["requests"])
        if rs != st["rows_sent"]:
            problems.append(f"per-response rows {rs} != rows_sent {st['rows_sent']}")
        # 2. every TNS packet within the negotiated SDU
        for r in c["requests"]:
            resp = r["response"]
            if any(length > sdu for length in resp["packet_lengths"]):
                problems.append(f"request {r['index']}: packet > SDU {sdu}: {resp['packet_lengths']}")
            if sum(resp["packet_lengths"]) != resp["tns_bytes"]:
                problems.append(f"request {r['index']}: tns_bytes mismatch")
            if len(resp["packet_lengths"]) != resp["tns_packets"]:
                problems.append(f"request {r['index']}: tns_packets mismatch")
            if r["request_tns_bytes"] > sdu * r["request_tns_packets"]:
                problems.append(f"request {r['index']}: request packets exceed SDU")
            nne = resp.get("nne")
            if nne:     # native network encryption: the sealed DATA packets of the response
                markers = [n for n in resp["packet_lengths"] if n == 11] if resp.get("markers") else []
                if (sum(nne["plain_lengths"]) != resp["ttc_bytes"]
                        or len(nne["sealed_lengths"]) != nne["data_packets"]
                        or sum(nne["sealed_lengths"]) + 10 * nne["data_packets"] != nne["tns_bytes"]
                        or nne["tns_bytes"] + sum(markers) != resp["tns_bytes"]):
                    problems.append(f"request {r['index']}: NNE counters inconsistent: {nne}")
        # 3. byte counters = sum of packet lengths
        tot_sent = sum(r["response"]["tns_bytes"] for r in c["requests"]) + st["other_sent_tns_bytes"]
        if tot_sent != st["bytes_sent_tns"]:
            problems.append(f"bytes_sent_tns {st['bytes_sent_tns']} != sum of packets {tot_sent}")
        tot_recv = sum(r["request_tns_bytes"] for r in c["requests"]) + st["other_received_tns_bytes"]
        if tot_recv != st["bytes_received_tns"]:
            problems.append(f"bytes_received_tns {st['bytes_received_tns']} != sum {tot_recv}")
        # 4. round trips = requests answered
        if st["round_trips"] != len(c["requests"]):
            problems.append("round_trips != number of requests")
        # 5. EOR flag only when negotiated, never on PRO/DTY
        for r in c["requests"]:
            eor = r["response"]["end_of_response_flag"]
            if r["function"] in ("PRO", "DTY") and eor:
                problems.append("EOR on PRO/DTY reply")
            if r["function"] not in ("PRO", "DTY") and eor != c["end_of_response"]:
                problems.append(f"request {r['index']}: EOR flag {eor} but session EOR {c['end_of_response']}")
        # 6. TCP: socket byte totals vs capture, segment sizes vs MTU
        if "tcp_segments_server" in c:
            if manifest["mode"] == "netns":
                limit = manifest["mtu"] - 40
                for key in ("max_tcp_payload_server", "max_tcp_payload_client"):
                    if c[key] > limit:
                        problems.append(f"{key} {c[key]} > MTU-40 {limit}")
        # 7. WAN: the handshake took the configured RTT (a link that did not delay would
        #    give a LAN capture under a WAN name)
        if manifest.get("netem"):
            why = handshake_rtt_problem(c.get("handshake_rtt_ms"), manifest["netem"]["rtt_ms"])
            if why:
                problems.append(why)
    return problems


def handshake_rtt_problem(got, want):
    """What is wrong with a WAN connection's handshake RTT `got` (ms, measured in the
    capture) for a link configured to `want` ms, or None.  Never faster than configured
    less 10 % + 0.3 ms: a link that did not delay (or delayed one direction only) fails.
    Slower by up to half the RTT passes: a busy machine pauses the emulator or the
    endpoints (the user-space link is a process; CI runs four lanes on two cores), which
    only ever adds time; a link that delayed twice would still fail."""
    if got is None:
        return f"handshake RTT not measured, configured {want} ms"
    if got < want - (0.1 * want + 0.3) or got > 1.5 * want + 0.3:
        return f"handshake RTT {got} ms, configured {want} ms"
    return None

def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("manifests", nargs="+")
    args = ap.parse_args(argv)
    bad = 0
    for m in args.manifests:
        man = json.loads(Path(m).read_text())
        probs = verify(man)
        print(f"{m}: {'OK' if not probs else '; '.join(probs)}")
        bad += bool(probs)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
