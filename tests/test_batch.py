"""sqlnet_batch: many capture files -> Parquet round-trip records -> statements.

The expectations come from outside the batch code: -z sqlnet,stmt on the
uncut capture (the plugin's own tap, not its fields) and the generated
captures' manifests (the scripted server's own counts per request).
"""
import json
import os
import subprocess
import sys
from collections import Counter

import pytest

from pathlib import Path

from test_readme import appears_in_order
from tshark import PUBLIC, ROOT, TEST_CAPTURES, staged_plugin

sys.path.insert(0, str(ROOT))

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("duckdb")

SWEEP = TEST_CAPTURES / "sweep_arraysize.pcapng"
AS10 = TEST_CAPTURES / "arraysize_10.pcapng"
AS100 = TEST_CAPTURES / "arraysize_100.pcapng"

COLUMNS = ["file", "frame", "time", "conversation", "client_addr", "client_port", "server_addr", "server_port",
           "cursor", "sql", "call", "rows_asked", "rows", "request_ttc_bytes", "response_ttc_bytes",
           "request_tns_bytes", "response_tns_bytes", "response_packets", "response_data_packets",
           "response_segments", "sdu", "time_ms", "network_ms", "server_ms", "transfer_ms", "client_ms",
           "ora_error", "ora_message", "partial", "file_partial"]


def batch(*args, check=True):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    plugin = staged_plugin()
    assert plugin, "build first"
    p = subprocess.run([sys.executable, "-m", "sqlnet_batch", "--plugin", str(plugin), *map(str, args)],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    if check:
        assert p.returncode == 0, p.stderr
    return p


def manifest_statements(capture):
    """Per SQL text: round trips and rows, from the manifest's requests (a
    cursor's OALL8 names its SQL; its fetches name the cursor)."""
    m = json.loads(capture.with_suffix(".json").read_text())
    rts, rows = Counter(), Counter()
    for c in m["connections"]:
        by_cursor = {}
        for r in c["requests"]:
            resp = r["response"] or {}
            sql = r["sql"]
            if sql is None and r["cursor"]:
                sql = by_cursor.get(r["cursor"])
            if r["sql"] and resp.get("cursor"):
                by_cursor[resp["cursor"]] = r["sql"]
            rts[sql] += 1
            rows[sql] += resp.get("rows_sent") or 0
    return rts, rows


def stmt_json(tshark, capture):
    out = tshark.run(capture, ["-q", "-z", "sqlnet,stmt,format=json"]).stdout
    return {s["sql"]: s for s in json.loads(out)["statements"]}


def cut_sweep(d):
    """The bundled sweep cut into files of 400 packets (editcap -c 400) in d."""
    subprocess.run(["editcap", "-c", "400", str(SWEEP), str(d / "sweep.pcapng")], check=True)
    files = sorted(d.glob("sweep_*.pcapng"))
    assert len(files) >= 5
    return files


@pytest.fixture(scope="module")
def cut_set(tmp_path_factory):
    files = cut_sweep(tmp_path_factory.mktemp("cut"))
    out = tmp_path_factory.mktemp("cut_out")
    # given in reverse: the job puts them in capture order itself
    p = batch("--out", out, "--format", "json", "--jobs", "2", *reversed(files))
    return files, out, json.loads(p.stdout), p.stderr


def test_cut_sweep_merged_equals_uncut_stmt_and_manifest(tshark, cut_set):
    files, out, stmts, _ = cut_set
    uncut = stmt_json(tshark, SWEEP)
    rts, rows = manifest_statements(SWEEP)
    got = {s["sql"]: s for s in stmts}
    assert set(got) == set(uncut)
    for sql, s in uncut.items():
        assert (got[sql]["round_trips"], got[sql]["rows_processed"]) == (s["round_trips"], s["rows"]), sql
        if sql is not None:
            assert (got[sql]["round_trips"], got[sql]["rows_processed"]) == (rts[sql], rows[sql]), sql
    assert sum(s["round_trips"] for s in stmts) == sum(rts.values())
    assert sum(s["rows_processed"] for s in stmts) == json.loads(
        SWEEP.with_suffix(".json").read_text())["client"]["rows_received"]


def test_cut_sweep_every_round_trip_with_rows_has_its_sql(cut_set):
    files, out, _, _ = cut_set
    parquets = sorted(out.glob("*.parquet"))
    assert [p.stem for p in parquets] == [f.stem for f in files]      # one per input
    t = pa.concat_tables([pq.read_table(p) for p in parquets])
    assert set(COLUMNS) <= set(t.column_names)
    recs = t.to_pylist()
    with_rows = [r for r in recs if r["rows"] > 0]
    assert with_rows and all(r["sql"] for r in with_rows)
    # the later files' fetches got their SQL from an earlier file's parse
    carried = [r for r in recs if r["sql_carried"]]
    assert carried and {r["file"] for r in carried} - {files[0].name}
    # round trips cut by a file boundary: kept once, by the file where they end,
    # their call in the previous file
    spanning = [r for r in recs if r["request_file"] != r["file"]]
    assert spanning
    names = [f.name for f in files]
    assert all(names.index(r["request_file"]) == names.index(r["file"]) - 1 for r in spanning)
    # the SDU negotiated in the first file reaches every record (manifest)
    sdu = json.loads(SWEEP.with_suffix(".json").read_text())["connections"][0]["negotiated_sdu"]
    assert {r["sdu"] for r in recs} == {sdu}
    assert {r["dialect"] for r in recs if r["file"] != files[0].name} == {24}


def test_cut_sweep_progress_on_stderr(cut_set):
    files, _, _, err = cut_set
    lines = [l for l in err.splitlines() if l.startswith("batch: ")]
    assert len(lines) == len(files)
    assert lines[-1].startswith(f"batch: {len(files)}/{len(files)} files, ")
    # packets: capinfos's count of the uncut capture (editcap kept them all)
    total = int(subprocess.run(["capinfos", "-c", "-M", "-T", "-r", str(SWEEP)], capture_output=True,
                               text=True, check=True).stdout.split("\t")[-1])
    assert f" {total} packets, " in lines[-1] and "packets/s" in lines[-1]


NUMERIC = ["executions", "fetch_calls", "round_trips", "bytes_to_client", "bytes_from_client",
           "tns_bytes_to_client", "tns_bytes_from_client", "row_bytes_to_client", "packets_to_client",
           "segments_to_client", "array_sizes", "more_data_responses", "partial_round_trips", "ora_errors"]
TIMES = ["response_time_sum_ms", "response_time_avg_ms", "response_time_max_ms", "wire_time_ms",
         "network_ms", "server_ms", "transfer_ms", "client_ms"]


def one_line(sql):
    return " ".join(sql.split()) if sql is not None else None


# public corpus: python_thin has a multi-line SQL text, which tshark -T fields
# prints with its newlines escaped; in sqlplus9i_vs_9.0.1 SQL*Plus 9i sends
# calls that cut the previous response short (not complete: no response time)
@pytest.mark.parametrize("capture", [SWEEP, TEST_CAPTURES / "error_midfetch.pcapng", "dbbat/python_thin.pcapng",
                                     "visblank/sqlplus9i_vs_9.0.1_full_session.pcapng"],
                         ids=lambda p: Path(p).stem)
def test_one_file_table_equals_stmt(tshark, tmp_path, capture):
    if isinstance(capture, str):
        if not (PUBLIC / capture).is_file():
            pytest.skip(f"public captures not available ({PUBLIC})")
        capture = PUBLIC / capture
    p = batch("--out", tmp_path, "--format", "json", capture)
    got = {one_line(s["sql"]): s for s in json.loads(p.stdout)}
    want = stmt_json(tshark, capture)
    assert list(got) == list(want)           # same statements, same order
    for sql, w in want.items():
        g = got[sql]
        assert g["statement"] == w["statement"]
        assert g["rows_processed"] == w["rows"]
        for k in NUMERIC:
            assert g[k] == w[k], (sql, k)
        for k in TIMES:
            assert round(g[k], 3) == pytest.approx(w[k] or 0.0, abs=0.0015), (sql, k)


def test_text_table_is_printed_like_stmt(tshark, tmp_path):
    text = batch("--out", tmp_path, SWEEP).stdout
    want = tshark.run(SWEEP, ["-q", "-z", "sqlnet,stmt"]).stdout
    # every figure line of the first statement appears in -z sqlnet,stmt's block
    block = text.split("\nStatement 2:")[0].split("\nStatement 1:")[1]
    lines = [l for l in block.splitlines()[1:] if l.startswith("  ")]
    assert len(lines) >= 19
    wblock = want.split("\nStatement 2:")[0].split("\nStatement 1:")[1]
    for l in lines:
        assert l in wblock.splitlines(), l


def test_compare_array_sizes(tmp_path):
    a, b = tmp_path / "as10", tmp_path / "as100"
    batch("--out", a, AS10)
    batch("--out", b, AS100)
    p = batch("--compare", a, b, "--format", "json")
    pairs = {x["sql"]: x for x in json.loads(p.stdout)}
    for side, cap in (("before", AS10), ("after", AS100)):
        rts, rows = manifest_statements(cap)
        for sql in rts:
            assert pairs[sql][side]["round_trips"] == rts[sql], (side, sql)
            assert pairs[sql][side]["rows_processed"] == rows[sql], (side, sql)
    text = batch("--compare", a, b).stdout
    rts10, _ = manifest_statements(AS10)
    rts100, _ = manifest_statements(AS100)
    sql = "SELECT * FROM sqlnet_rows"
    diff = rts100[sql] - rts10[sql]
    line = [l for l in text.split("SQL: " + sql)[1].splitlines() if l.strip().startswith("round trips")][0]
    assert line.split()[2:5] == [str(rts10[sql]), str(rts100[sql]), str(diff)]


def test_unreadable_and_truncated_files(tmp_path):
    bad = tmp_path / "garbage.pcapng"
    bad.write_bytes(b"this is not a capture file\n" * 10)
    data = AS10.read_bytes()
    cut = tmp_path / "cut.pcapng"
    cut.write_bytes(data[: len(data) * 2 // 3 + 7])      # cut in the middle of a block
    missing = tmp_path / "missing.pcapng"
    out = tmp_path / "out"
    p = batch("--out", out, "--format", "json", bad, cut, AS100, missing, check=False)
    assert p.returncode != 0
    assert str(bad) in p.stderr and str(missing) in p.stderr
    assert "2 of 4 files not read" in p.stderr, p.stderr
    names = sorted(x.name for x in out.glob("*.parquet"))
    assert names == ["arraysize_100.parquet", "cut.parquet"]
    t = pq.read_table(out / "cut.parquet").to_pylist()
    assert t and all(r["file_partial"] for r in t)
    assert not any(r["file_partial"] for r in pq.read_table(out / "arraysize_100.parquet").to_pylist())
    # the statements still printed, both files' round trips in them
    stmts = json.loads(p.stdout)
    assert sum(s["round_trips"] for s in stmts) == len(t) + pq.read_table(out / "arraysize_100.parquet").num_rows


# ---- docs/batch.md: its sh blocks run, and print what the page shows -------

BATCH_MD = ROOT / "docs" / "batch.md"


def doc_blocks():
    """(commands, shown output lines or None) of every ```sh block, in order."""
    import re
    text = BATCH_MD.read_text()
    blocks = list(re.finditer(r"^```(\w*)\n(.*?)^```$", text, re.S | re.M))
    out = []
    for i, b in enumerate(blocks):
        if b.group(1) != "sh":
            continue
        nxt = blocks[i + 1] if i + 1 < len(blocks) else None
        shown = None
        if nxt and nxt.group(1) == "" and text[b.end():nxt.start()].strip() == "":
            shown = [l.rstrip() for l in nxt.group(2).strip("\n").splitlines()]
        out.append((b.group(2), shown))
    return out


@pytest.fixture
def doc_dir():
    """A folder tshark run as nobody (tests/tshark.py) can read, unlike tmp_path."""
    import shutil
    import tempfile
    d = Path(tempfile.mkdtemp(prefix="sqlnet-batch-doc-"))
    os.chmod(d, 0o755)
    yield d
    shutil.rmtree(d, ignore_errors=True)


def test_batch_page_commands_print_what_is_shown(tshark, doc_dir):
    blocks = doc_blocks()
    assert len(blocks) >= 6 and sum(s is not None for _, s in blocks) >= 4
    tmp_path = doc_dir
    (tmp_path / "test-captures").symlink_to(TEST_CAPTURES)
    prelude = (f'batch() {{ PYTHONPATH="{ROOT}" "{sys.executable}" -m sqlnet_batch '
               f'--plugin "{staged_plugin()}" "$@"; }}\n'
               f'tshark() {{ "{tshark.wrapper()}" "$@"; }}\nset -e\n')
    for cmds, shown in blocks:
        script = cmds.replace("./run.sh batch", "batch").replace("python3 -m sqlnet_batch", "batch")
        p = subprocess.run(["bash", "-c", prelude + script], cwd=tmp_path, capture_output=True, text=True,
                           timeout=300)
        assert p.returncode == 0, (cmds, p.stderr)
        if shown is not None and " -T ek " in cmds and staged_plugin().parent.parent.name != "4.0":
            # the page shows tshark 4.0's -T ek (its index line carries a _type;
            # newer releases write the index line their own way): the records only
            assert '"sqlnet_rt_rows":["' in p.stdout, (cmds, p.stdout[:500])
        elif shown is not None:
            missing = appears_in_order(shown, p.stdout)
            assert missing is None, f"docs/batch.md: `{cmds.strip()}` does not print {missing!r}"


def test_es_mapping_covers_every_column_and_bulk_parses(tmp_path):
    from sqlnet_batch import extract
    m = json.loads(batch("--es-mapping").stdout)["mappings"]["properties"]
    # the historical columns, then the plugin's other record columns (its declaration)
    with extract.Runner(plugin=staged_plugin()) as runner:
        runner.spec()
    assert list(m) == [f.name for f in extract.SCHEMA]
    assert {"wait_ms", "idle_ms", "ora_status"} <= set(m)
    assert m["client_addr"] == {"type": "ip"} and m["rows"] == {"type": "long"}
    out = tmp_path / "r"
    batch("-q", "--out", out, AS10)
    lines = batch("--ndjson", out).stdout.splitlines()
    docs = [json.loads(l) for l in lines[1::2]]
    assert all(json.loads(l) == {"index": {"_index": "sqlnet-rt"}} for l in lines[0::2])
    # the manifest's round trips, one document each; every key mapped
    m10 = json.loads(AS10.with_suffix(".json").read_text())
    assert len(docs) == sum(c["stats"]["round_trips"] for c in m10["connections"])
    assert set().union(*docs) <= set(m)


def test_capture_order_reads_first_packet_times(tmp_path):
    """The files' order comes from their first packet's time, read from the
    pcapng (its interface's resolution) or pcap header: as capinfos reads it."""
    from sqlnet_batch import capture_order, first_packet_time
    pcap = tmp_path / "as100.pcap"
    subprocess.run(["editcap", "-F", "pcap", str(AS100), str(pcap)], check=True)
    for f in (AS10, AS100, pcap, SWEEP):
        want = float(subprocess.run(["capinfos", "-a", "-S", "-M", "-T", "-r", str(f)], capture_output=True,
                                    text=True, check=True).stdout.split("\t")[-1])
        assert first_packet_time(f) == pytest.approx(want, abs=1e-6), f
    garbage = tmp_path / "x.pcapng"
    garbage.write_bytes(b"no capture")
    order = capture_order([garbage, pcap, AS10])
    assert order[-1] == garbage
    assert (order[0], order[1]) == ((AS10, pcap) if first_packet_time(AS10) < first_packet_time(pcap)
                                    else (pcap, AS10))
