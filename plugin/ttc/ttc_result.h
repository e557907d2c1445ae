/* ttc_result.h - what the message decoders share with the stream layer: the
 * decoder state later messages depend on, and what decoding one message
 * found (applied to the records on the first pass).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_TTC_RESULT_H
#define SQLNET_TTC_RESULT_H

#include "ttc_codec.h"
#include "ttc_roundtrip.h"

/* The latest row of a result set, column by column, for the values a bit
 * vector says are repeated in the next row: each column's bytes as they
 * were on the wire (decoded again where shown), or its text when the bytes
 * were too long to keep (cut at TTC_ROW_KEEP_BYTES). */
#define TTC_ROW_KEEP_BYTES 256
typedef struct ttc_kept_value {
    union {
        const guint8 *raw;     /* the column's bytes as on the wire (is_text 0; NULL: none) */
        const char *text;      /* its text when the bytes were too long to keep (is_text 1) */
    } u;
    guint32 len;               /* length of raw, or the value's full length in bytes */
    guint32 is_text;
} ttc_kept_value_t;

/* A kept value's bytes, NULL when it has none (or is kept as text). */
static inline const guint8 *
ttc_kept_raw(const ttc_kept_value_t *v)
{
    return v->is_text ? NULL : v->u.raw;
}

/* A kept value's text, NULL when it is kept as bytes (or has none). */
static inline const char *
ttc_kept_text(const ttc_kept_value_t *v)
{
    return v->is_text ? v->u.text : NULL;
}

static inline void
ttc_kept_set_raw(ttc_kept_value_t *v, const guint8 *raw)
{
    v->u.raw = raw;
    v->is_text = 0;
}

static inline void
ttc_kept_set_text(ttc_kept_value_t *v, const char *text)
{
    v->u.text = text;
    v->is_text = 1;
}

typedef struct ttc_row_values {
    guint32 ncols;
    guint32 sig;               /* the columns' types (a hash) the values belong to */
    ttc_kept_value_t *v;
} ttc_row_values_t;

/* Decoder state that later messages depend on. */
typedef struct ttc_state {
    const ttc_dialect_t *dialect;
    const ttc_describe_t *describe;   /* columns of the rows being received */
    const guint8 *bitvec;             /* columns sent in the next row (NULL = all) */
    guint16 bitvec_len;
    guint16 rxh_columns;              /* columns per row from the row header (no describe) */
    guint16 rxh_bv_bytes;             /* bit vector size from the row header (no describe) */
    const ttc_row_values_t *last_row; /* values of the latest row (repeated columns) */
    ttc_request_t *req;
    ttc_response_t *resp;
} ttc_state_t;

/* What decoding one message found (applied to aggregates on the first pass). */
typedef struct ttc_msg_result {
    guint8  type;
    gboolean terminal;         /* ends a response in classic (pre-EOR) mode */
    gboolean eor;              /* message 29 */
    gboolean row;              /* one row of data */
    guint32 more_rows;         /* ... and this many more (row data messages that
                                * followed it, taken at once: ttc_rd_t.runs) */
    guint32 more_bvc_bytes;    /* bytes of the bit vector messages among them */
    gboolean has_oer;
    guint32 oer_cursor, oer_error, call_status;
    guint64 oer_rowcount;
    const char *oer_message;
    /* client calls */
    gboolean is_call;
    ttc_call_t call;           /* fields of the call, when is_call */
    gboolean stop;             /* call data (binds/defines) follows: not walked */
    gboolean body_undecoded;   /* ... or the call's body could not be read (shown as bytes) */
    gboolean sql_searched;     /* OCI OALL8: its text was found by a search, not where the
                                * dialect's header layout puts it (dialect inference) */
    guint8 pb_skipped;         /* piggybacks whose body did not fit the dialect's layout and were
                                * skipped to the next call header (dialect inference prefers the
                                * dialect under which fewer are) */
    /* a close-cursors piggyback (OCCA, message 17): its sequence number and
     * the cursors it names (the first TTC_MAX_CLOSED of them) */
    gboolean closes_cursors;
    guint8 close_seq;
#define TTC_MAX_CLOSED 8
    guint32 nclosed;
    guint32 closed[TTC_MAX_CLOSED];
    /* cursors a reply opens (REF cursor out binds and columns, implicit results) */
#define TTC_MAX_NEW_CURSORS 8
    guint32 ncursors;
    struct { guint32 id; const ttc_describe_t *describe; } cursors[TTC_MAX_NEW_CURSORS];
    /* handshake facts */
    gboolean dialect_update;
    ttc_dialect_t dialect;
} ttc_msg_result_t;

#endif /* SQLNET_TTC_RESULT_H */
