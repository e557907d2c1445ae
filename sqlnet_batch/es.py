"""The records for Elasticsearch / OpenSearch: an index mapping from the
Parquet schema, and the records as _bulk NDJSON.

    python -m sqlnet_batch --es-mapping                  the mapping (PUT /sqlnet-rt)
    python -m sqlnet_batch --ndjson DIR [--index NAME]   the _bulk body, one record a document

SPDX-License-Identifier: GPL-2.0-or-later
"""
import json
import sys

import pyarrow as pa
import pyarrow.parquet as pq

from . import extract

TEXT = {"sql", "ora_message"}          # searched by words; `sql.keyword` aggregates
IP = {"client_addr", "server_addr"}


def es_type(field):
    t = field.type
    if field.name in IP:
        return {"type": "ip"}
    if field.name in TEXT:
        return {"type": "text", "fields": {"keyword": {"type": "keyword", "ignore_above": 32766}}}
    if pa.types.is_string(t):
        return {"type": "keyword"}
    if pa.types.is_boolean(t):
        return {"type": "boolean"}
    if pa.types.is_timestamp(t):
        return {"type": "date_nanos"}
    if pa.types.is_int32(t):
        return {"type": "integer"}
    if pa.types.is_integer(t):
        return {"type": "long"}
    if pa.types.is_floating(t):
        return {"type": "double"}
    raise ValueError(f"no mapping for {field}")


def mapping():
    return {"mappings": {"dynamic": "strict", "properties": {f.name: es_type(f) for f in extract.SCHEMA}}}


def mapping_text():
    """The mapping as JSON, one field a line."""
    props = mapping()["mappings"]["properties"]
    lines = [f'      "{k}": {json.dumps(v)}' for k, v in props.items()]
    return ('{\n  "mappings": {\n    "dynamic": "strict",\n    "properties": {\n' + ",\n".join(lines) +
            "\n    }\n  }\n}")


def _value(v):
    return v.isoformat().replace("+00:00", "Z") if hasattr(v, "isoformat") else v


def ndjson(files, index="sqlnet-rt", out=sys.stdout):
    """One `index` action and one document per record (null columns left out)."""
    action = json.dumps({"index": {"_index": index}})
    n = 0
    for f in files:
        for batch in pq.ParquetFile(f).iter_batches(batch_size=10000):
            for rec in batch.to_pylist():
                out.write(action + "\n")
                out.write(json.dumps({k: _value(v) for k, v in rec.items() if v is not None},
                                     ensure_ascii=False) + "\n")
                n += 1
    return n
