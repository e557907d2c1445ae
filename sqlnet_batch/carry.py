"""Sessions that span files: what an earlier file of a conversation knew.

A ring buffer's later file sees a cursor's fetches but not the parse that
named its SQL (it was in an earlier file), nor the connect that negotiated the
SDU and the TTC dialect.  Over the records of the whole set in capture order
(file_index), a record without SQL whose cursor is known takes the SQL of the
last record of the same conversation and cursor in an earlier file - unless
its own file already named an SQL for that cursor before it (then the plugin
saw the cursor's parse, or its reuse, in this file and knew better).  A
record without SDU or dialect takes the conversation's last one from an
earlier file.

The same statements run on DuckDB (default) and Spark SQL: `sql(dialect)`
returns them with the one function the two spell differently.
"""

LAST_IGNORE_NULLS = {
    "duckdb": "last_value({x} IGNORE NULLS)",
    "spark": "last({x}, true)",
}

# (name, statement) in order; `records` is the table or view of raw records.
def statements(dialect):
    last = LAST_IGNORE_NULLS[dialect]
    before = "OVER (PARTITION BY {p} ORDER BY file_index ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)"
    cur_key = "conversation, `cursor`" if dialect == "spark" else 'conversation, "cursor"'
    cur = "`cursor`" if dialect == "spark" else '"cursor"'
    return [
        ("cursor_files", f"""
SELECT conversation, {cur}, file_index,
       min(CASE WHEN sql IS NOT NULL THEN frame END) AS first_sql_frame,
       max_by(sql, CASE WHEN sql IS NOT NULL THEN frame END) AS last_sql,
       max_by(sql_id, CASE WHEN sql IS NOT NULL THEN frame END) AS last_sql_id
FROM records WHERE {cur} IS NOT NULL
GROUP BY conversation, {cur}, file_index"""),
        ("cursor_carry", f"""
SELECT conversation, {cur}, file_index, first_sql_frame,
       {last.format(x='last_sql')} {before.format(p=cur_key)} AS carried_sql,
       {last.format(x='last_sql_id')} {before.format(p=cur_key)} AS carried_sql_id
FROM cursor_files"""),
        ("conv_files", """
SELECT conversation, file_index,
       max_by(sdu, CASE WHEN sdu IS NOT NULL THEN frame END) AS last_sdu,
       max_by(dialect, CASE WHEN dialect IS NOT NULL THEN frame END) AS last_dialect
FROM records GROUP BY conversation, file_index"""),
        ("conv_carry", f"""
SELECT conversation, file_index,
       {last.format(x='last_sdu')} {before.format(p='conversation')} AS carried_sdu,
       {last.format(x='last_dialect')} {before.format(p='conversation')} AS carried_dialect
FROM conv_files"""),
    ]


def carried_select(columns, dialect, where=""):
    """The records with the carried values filled in, columns in `columns` order."""
    cur = "`cursor`" if dialect == "spark" else '"cursor"'
    fill = (f"(r.sql IS NULL AND r.{cur} IS NOT NULL AND c.carried_sql IS NOT NULL AND "
            "(c.first_sql_frame IS NULL OR r.frame < c.first_sql_frame))")
    exprs = {
        "sql": f"CASE WHEN {fill} THEN c.carried_sql ELSE r.sql END",
        "sql_id": f"CASE WHEN {fill} THEN c.carried_sql_id ELSE r.sql_id END",
        "sql_carried": f"({fill} OR r.sql_carried)",
        "sdu": "coalesce(r.sdu, v.carried_sdu)",
        "dialect": "coalesce(r.dialect, v.carried_dialect)",
    }
    sel = ", ".join(f"{exprs[c]} AS {c}" if c in exprs else
                    (f"r.{cur} AS {cur}" if c == "cursor" else f"r.{c} AS {c}") for c in columns)
    return (f"SELECT {sel} FROM records r "
            f"LEFT JOIN cursor_carry c ON c.conversation = r.conversation AND c.{cur} = r.{cur} "
            f"AND c.file_index = r.file_index "
            f"LEFT JOIN conv_carry v ON v.conversation = r.conversation AND v.file_index = r.file_index "
            f"{where}")
