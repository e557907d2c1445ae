/* ttc_state.c - per-conversation TTC state: the session and its
 * dialect, the message decoders given at registration, cursors, and the copies
 * into file scope of what later packets need (describes, bit vectors).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>
#include <epan/proto_data.h>

#include "sqlnet.h"
#include "session.h"
#include "tns.h"
#include "ttc.h"
#include "sql_id.h"
#include "textmap.h"
#include "ttc_internal.h"

/* The message decoders (plugin.c gives them once at registration) and the
 * names of what they decode, made from their tables. */
const ttc_decoder_ops_t *ttc_decoders;

value_string ttc_msg_type_vals[257];
value_string ttc_function_vals[257];

/* A value string of the names `name` gives codes 0-255, in code order. */
static void
names_from(value_string *vals, const char *(*name)(guint8 code))
{
    guint code, n = 0;

    for (code = 0; code < 256; code++) {
        const char *s = name((guint8)code);
        if (s) {
            vals[n].value = code;
            vals[n].strptr = s;
            n++;
        }
    }
    vals[n].value = 0;
    vals[n].strptr = NULL;
}

void
ttc_set_decoders(const ttc_decoder_ops_t *ops)
{
    ttc_decoders = ops;
    names_from(ttc_msg_type_vals, ops->message_name);
    names_from(ttc_function_vals, ops->function_name);
}

/* ---- session ------------------------------------------------------------ */

/* Pending-message buffers are plain heap memory (they grow and shrink);
 * they go with the file scope: a stream registers this when it first holds
 * one (ttc_pending_free_at_end), so that a session that never holds one
 * costs the file scope no callback. */
static sqlnet_wmem_cb_result_t
free_pending_buffer(wmem_allocator_t *allocator _U_, wmem_cb_event_t event _U_, void *user_data)
{
    ttc_stream_t *s = (ttc_stream_t *)user_data;
    g_free(s->pending);
    s->pending = NULL;
    return FALSE;
}

void
ttc_pending_free_at_end(ttc_stream_t *s)
{
    if (!s->pending_cb) {
        s->pending_cb = TRUE;
        wmem_register_callback(wmem_file_scope(), free_pending_buffer, s);
    }
}

ttc_session_t *
ttc_session(sqlnet_session_t *sess)
{
    ttc_session_t *ts = (ttc_session_t *)sess->ttc;
    if (!ts) {
        ts = wmem_new0(wmem_file_scope(), ttc_session_t);
        /* Until the handshake says otherwise: thin, universal, 12.1 fields. */
        ttc_dialect_init_universal(&ts->dialect, 7);
        ts->dialect.known = FALSE;
        ts->dialect.fv_client = ts->dialect.fv_server = 0;   /* not negotiated yet */
        ts->dialect_ptr = wmem_memdup(wmem_file_scope(), &ts->dialect, sizeof(ts->dialect));
        ts->dir[0].state.dialect = ts->dir[1].state.dialect = ts->dialect_ptr;
        sess->ttc = ts;
    }
    return ts;
}

/* The session, noting the frame that made it: timing.c's ACK tap takes the
 * frames from there on only, in every pass (a single pass has no session,
 * so no ACK samples, before it; the second pass of -2 would). */
ttc_session_t *
ttc_session_at(sqlnet_session_t *sess, packet_info *pinfo)
{
    ttc_session_t *ts = ttc_session(sess);
    if (!ts->ack_from)
        ts->ack_from = pinfo->num;
    if (!PINFO_FD_VISITED(pinfo))
        ttc_rec_frame_seen(ts, pinfo);
    return ts;
}

/* The dialect a decoder's update settles for the session. */
void
resolve_dialect(ttc_dialect_t *out, const sqlnet_session_t *sess, const ttc_dialect_t *d)
{
    *out = *d;
    if (out->fv_client && out->fv_server)
        out->fv = MIN(out->fv_client, out->fv_server);
    else
        out->fv = MAX(out->fv_client, out->fv_server);
    /* End of response needs the client's request and the server's offer. */
    out->eor = d->eor && sess->version >= TNS_VERSION_MIN_EOR &&
               (sess->accept_flags2 & TNS_AF2_END_OF_RESPONSE);
}

void
set_dialect(ttc_session_t *ts, const sqlnet_session_t *sess, const ttc_dialect_t *d)
{
    resolve_dialect(&ts->dialect, sess, d);
    /* a snapshot equal to the one in force is that one (memcmp: padding
     * that differs only costs a copy) */
    if (memcmp(&ts->dialect, ts->dialect_ptr, sizeof(ts->dialect)) != 0)
        ts->dialect_ptr = wmem_memdup(wmem_file_scope(), &ts->dialect, sizeof(ts->dialect));
    ts->dir[0].state.dialect = ts->dir[1].state.dialect = ts->dialect_ptr;
}

/* The cursors by id, in a tree made with the first one (a session that
 * names none pays nothing, one that names a few pays a node each, not a
 * hash table); capped (preference max_cursors): a cursor beyond the cap is
 * not remembered, and the packet that met the cap says so. */
const ttc_cursor_t *
ttc_cursor_find(const ttc_session_t *ts, guint32 id)
{
    return ts->cursors ? (const ttc_cursor_t *)wmem_tree_lookup32(ts->cursors, id) : NULL;
}

ttc_cursor_t *
cursor_get(ttc_session_t *ts, guint32 id, gboolean create, ttc_pdu_rec_t *rec)
{
    ttc_cursor_t *c = ts->cursors ? (ttc_cursor_t *)wmem_tree_lookup32(ts->cursors, id) : NULL;
    if (!c && create) {
        if (ts->ncursors >= sqlnet_prefs()->max_cursors) {
            if (rec)
                ttc_pdu_more(ts, rec)->cursor_dropped = id ? id : G_MAXUINT32;
            return NULL;
        }
        if (!ts->cursors)
            ts->cursors = wmem_tree_new(wmem_file_scope());
        c = wmem_new0(wmem_file_scope(), ttc_cursor_t);
        wmem_tree_insert32(ts->cursors, id, c);
        ts->ncursors++;
    }
    return c;
}

/* ---- first-pass memory: decode in packet scope, keep what later packets need */

/* A describe decoded in packet scope, copied into file scope: later
 * responses of its cursor walk their rows with it and name their values
 * by its column names. */
const ttc_describe_t *
describe_keep(const ttc_describe_t *d)
{
    ttc_describe_t *k = wmem_new(wmem_file_scope(), ttc_describe_t);
    guint32 i;

    k->ncols = d->ncols;
    k->kind = d->kind;
    k->has_lob = d->has_lob;
    k->walk_known = 0;                /* a copy may be changed: worked out again */
    k->walk_plain = 0;
    k->walk_sig = 0;
    k->cols = (ttc_column_t *)wmem_memdup(wmem_file_scope(), d->cols,
                                          sizeof(ttc_column_t) * MAX(d->ncols, 1u));
    for (i = 0; i < d->ncols; i++) {
        if (d->cols[i].name)
            k->cols[i].name = wmem_strdup(wmem_file_scope(), d->cols[i].name);
        /* an object column's type name: shown on its values in later rows */
        if (d->cols[i].type_name)
            k->cols[i].type_name = wmem_strdup(wmem_file_scope(), d->cols[i].type_name);
    }
    return k;
}

/* End of a packet's first pass: the latest row's values and the bit vector
 * in force for the next row (decoded in packet scope) move into file scope; an equal one kept
 * before is reused, so a result set costs one copy, not one per packet. */
static gboolean
kept_value_equal(const ttc_kept_value_t *a, const ttc_kept_value_t *b)
{
    const guint8 *ar = ttc_kept_raw(a), *br = ttc_kept_raw(b);

    if (a->len != b->len || !ar != !br)
        return FALSE;
    if (ar)
        return ar == br || memcmp(ar, br, a->len) == 0;
    return g_strcmp0(ttc_kept_text(a), ttc_kept_text(b)) == 0;
}

/* The latest row's values (packet scope) into file scope; values equal to
 * the ones kept before are shared, so a packet costs at most one array
 * and the values that changed. */
static void
last_row_keep(ttc_stream_t *s)
{
    ttc_state_t *st = &s->state;
    const ttc_row_values_t *old = s->last_row_kept;
    ttc_row_values_t *k;
    guint32 i;
    gboolean same;
    gsize need;
    guint8 *at;

    if (!st->last_row || st->last_row == old)
        return;
    same = old && old->ncols == st->last_row->ncols && old->sig == st->last_row->sig;
    for (i = 0; same && i < old->ncols; i++)
        same = kept_value_equal(&old->v[i], &st->last_row->v[i]);
    if (same) {
        st->last_row = old;
        return;
    }
    /* one allocation: the row, its values, then the bytes and texts of
     * those not shared with the row kept before */
    need = sizeof(ttc_row_values_t) + (gsize)MAX(st->last_row->ncols, 1u) * sizeof(ttc_kept_value_t);
    for (i = 0; i < st->last_row->ncols; i++) {
        const ttc_kept_value_t *v = &st->last_row->v[i];
        if (old && i < old->ncols && old->sig == st->last_row->sig && kept_value_equal(&old->v[i], v))
            continue;
        need += v->len * (ttc_kept_raw(v) != NULL) + (ttc_kept_text(v) ? strlen(ttc_kept_text(v)) + 1 : 0);
    }
    k = (ttc_row_values_t *)wmem_alloc(wmem_file_scope(), need);
    k->ncols = st->last_row->ncols;
    k->sig = st->last_row->sig;
    k->v = (ttc_kept_value_t *)(void *)(k + 1);
    at = (guint8 *)(k->v + MAX(k->ncols, 1u));
    for (i = 0; i < k->ncols; i++) {
        const ttc_kept_value_t *v = &st->last_row->v[i];
        if (old && i < old->ncols && old->sig == k->sig && kept_value_equal(&old->v[i], v)) {
            k->v[i] = old->v[i];
            continue;
        }
        k->v[i].len = v->len;
        ttc_kept_set_raw(&k->v[i], NULL);
        if (ttc_kept_raw(v) && v->len) {        /* (an empty one was kept as NULL) */
            memcpy(at, ttc_kept_raw(v), v->len);
            ttc_kept_set_raw(&k->v[i], at);
            at += v->len;
        }
        if (ttc_kept_text(v)) {
            gsize n = strlen(ttc_kept_text(v)) + 1;
            memcpy(at, ttc_kept_text(v), n);
            ttc_kept_set_text(&k->v[i], (const char *)at);
            at += n;
        }
    }
    s->last_row_kept = k;
    st->last_row = k;
}

void
state_keep(ttc_stream_t *s)
{
    ttc_state_t *st = &s->state;

    last_row_keep(s);
    if (!st->bitvec || st->bitvec == s->bitvec_kept)
        return;
    if (s->bitvec_kept && s->bitvec_kept_len == st->bitvec_len &&
        memcmp(s->bitvec_kept, st->bitvec, st->bitvec_len) == 0) {
        st->bitvec = s->bitvec_kept;
        return;
    }
    s->bitvec_kept = (const guint8 *)wmem_memdup(wmem_file_scope(), st->bitvec, st->bitvec_len);
    s->bitvec_kept_len = st->bitvec_len;
    st->bitvec = s->bitvec_kept;
}

/* A session's SQL_IDs by statement text (core/textmap.h), each worked out
 * once per text. */
struct ttc_sql_ids {
    sqlnet_textmap_t ids;              /* text -> its SQL_ID (file scope) */
};

const char *
ttc_sql_id(ttc_session_t *ts, const char *sql)
{
    char *id;

    if (!sql)
        return NULL;
    if (!ts->sql_ids)
        ts->sql_ids = wmem_new0(wmem_file_scope(), struct ttc_sql_ids);
    id = (char *)sqlnet_textmap_lookup(&ts->sql_ids->ids, sql);
    if (!id) {
        /* the texts a session keeps live in file scope: the key needs no copy */
        id = (char *)wmem_alloc(wmem_file_scope(), SQLNET_SQL_ID_LEN + 1);
        sqlnet_sql_id(sql, strlen(sql), id);
        sqlnet_textmap_insert(&ts->sql_ids->ids, sql, id);
    }
    return id;
}
