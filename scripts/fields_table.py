#!/usr/bin/env python3
"""Print the field reference table (docs/fields.md) from the plugin's registered fields.

    python3 scripts/fields_table.py [--tshark PATH] > table.md
    python3 scripts/fields_table.py --update docs/fields.md   (rewrites between the markers)

tshark must load the plugin: as root it ignores WIRESHARK_PLUGIN_DIR, so run
it as an unprivileged user or pass --tshark with a wrapper that does
(tests/tshark.py's Tshark.wrapper()).
"""
import argparse
import os
import re
import subprocess

BEGIN, END = "<!-- fields:begin -->", "<!-- fields:end -->"
TYPES = {"FT_UINT8": "uint8", "FT_UINT16": "uint16", "FT_UINT32": "uint32", "FT_UINT64": "uint64",
         "FT_INT32": "int32", "FT_INT64": "int64", "FT_BOOLEAN": "bool", "FT_STRING": "string",
         "FT_BYTES": "bytes", "FT_NONE": "label", "FT_DOUBLE": "double", "FT_FRAMENUM": "frame",
         "FT_RELATIVE_TIME": "time (s)", "FT_FLOAT": "float"}


def table(tshark):
    out = subprocess.run([tshark, "-G", "fields"], capture_output=True, text=True, check=True).stdout
    return table_from(out)


def table_from(fields_output):
    """The markdown table for the sqlnet fields in `tshark -G fields` output."""
    rows = ["| field | type | meaning |", "|---|---|---|"]
    ora = []          # the per-number ORA expert fields: one row for all of them
    for line in fields_output.splitlines():
        p = line.split("\t")
        if len(p) >= 8 and p[0] == "F" and p[4] == "sqlnet":
            if re.fullmatch(r"sqlnet\.ora_error\.ora\d{5}", p[2]):
                if not ora:
                    rows.append(None)
                ora.append(f"`{p[2]}` ({p[1]})")
                continue
            meaning = p[1] + (f": {p[7]}" if p[7] else "")
            # the key-log hint names the package's README with the Wireshark release it
            # was built for: one page for every release
            meaning = re.sub(r"sqlnet-wireshark\d+\.\d+", "sqlnet-wireshark<release>", meaning)
            rows.append(f"| `{p[2]}` | {TYPES.get(p[3], p[3])} | {meaning.replace('|', '/')} |")
    if ora:
        rows[rows.index(None)] = (f"| `sqlnet.ora_error.ora<5 digits>` | label | one expert field per common ORA "
                                  f"error ({len(ora)}): {', '.join(ora).replace('|', '/')} |")
    return "\n".join(rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tshark", default=os.environ.get("TSHARK", "tshark"))
    ap.add_argument("--update", metavar="FILE")
    a = ap.parse_args()
    t = table(a.tshark)
    if not a.update:
        print(t)
        return
    text = open(a.update).read()
    text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), f"{BEGIN}\n{t}\n{END}", text, flags=re.S)
    open(a.update, "w").write(text)


if __name__ == "__main__":
    main()
