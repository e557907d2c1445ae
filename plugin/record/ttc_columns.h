/* ttc_columns.h - what a describe, bind or define metadata decodes to: the columns
 * (or binds) that lay out the values of rows and out-bind rows.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_TTC_COLUMNS_H
#define SQLNET_TTC_COLUMNS_H

#include <epan/packet.h>

typedef struct ttc_column {
    guint8  type;         /* Oracle type number */
    guint8  csfrm;
    guint8  bind_flags;   /* binds: oacflg (TTC_BIND_FLAG_ARRAY) */
    guint8  lob_prefetch; /* LOB column as the client defined it: 0 not defined (size and chunk
                           * size assumed, as python-oracledb always asks), 1 size and chunk size,
                           * 2 those and prefetched data (JDBC's LOB prefetch) */
    guint32 buffer_size;
    const char *name;
    const char *type_name;  /* an object column's type, "SCHEMA.NAME" (describe), else NULL */
} ttc_column_t;

/* What a row data message (RXD) carries, and so how its values are laid out
 * (python-oracledb messages/base.pyx _process_row_data / _process_column_data
 * with in_fetch true or false). */
typedef enum {
    TTC_ROWS_COLUMNS = 0,      /* query rows: the describe's columns */
    TTC_ROWS_OUT_BINDS,        /* PL/SQL out binds after an I/O vector: each value then sb4 */
    TTC_ROWS_RETURNING         /* DML RETURNING binds: per bind ub4 rows, then the values */
} ttc_rows_kind_t;

/* Oracle type numbers by name (describe columns, binds). */
extern const value_string ttc_ora_type_vals[];

typedef struct ttc_describe {
    guint32 ncols;
    ttc_column_t *cols;
    guint8  kind;              /* ttc_rows_kind_t */
    gboolean has_lob;          /* a CLOB, BLOB or BFILE column: its rows carry locators */
    /* The row walk's facts about these columns, worked out on the first row
     * walked (decoders/ttc_rows.c) and kept: a describe's columns do not
     * change once rows are walked with it (a change is made on a copy,
     * describe_keep(), which starts without them). */
    guint8  walk_known;        /* 0: not worked out yet */
    guint8  walk_plain;        /* every column one plain value (one DALC) */
    guint32 walk_sig;          /* the columns' types, a hash (ttc_row_values_t.sig) */
} ttc_describe_t;

#endif /* SQLNET_TTC_COLUMNS_H */
