/* ttc_stream.c - the per-direction TTC stream and request/response grouping.
 *
 * First pass, per DATA payload of one direction:
 *   1. if a message from earlier packets is pending, join it with this
 *      payload and decode that one message (it may still be incomplete);
 *   2. decode the messages that start in this payload; the last one may
 *      continue in the next packet and becomes the pending message.
 * Each TNS packet keeps a record: the decoder state before its first
 * message and a copy of the joined message, so any later visit decodes the
 * packet again without the packets before it.  Only messages that cross a
 * packet boundary are copied; memory grows with packets, not with rows.
 *
 * Requests and responses: TTC is half-duplex.  A request is the client's
 * DATA from its first packet until the server answers; a response is the
 * server's packets from then on, until its terminal message (OER/STA before
 * 23ai), the end-of-response flag 0x2000 (23ai), or the next request.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/proto_data.h>
#include <epan/tap.h>
#include <epan/dissectors/packet-tcp.h>

#include "sqlnet.h"
#include "session.h"
#include "tns.h"
#include "ttc.h"
#include "sql_id.h"

/* Bounds on one message being collected across packets: its size, and the
 * bytes decoded in the attempts to complete it (every packet re-decodes the
 * message from its start, so a message cut into many small packets costs
 * quadratic time without this). */
#define TTC_MAX_PENDING (64u * 1024u * 1024u)
#define TTC_MAX_PENDING_WORK (256u * 1024u * 1024u)
/* Bytes held by pending messages of all conversations together, and the
 * buffer size a stream keeps between messages (larger ones are freed). */
#define TTC_MAX_PENDING_TOTAL (256u * 1024u * 1024u)
#define TTC_PENDING_KEEP (64u * 1024u)

typedef enum {
    STOP_END,          /* consumed everything */
    STOP_NEED_MORE,    /* last message continues in the next packet */
    STOP_BAD,          /* undecodable from here on */
    STOP_CALL_DATA,    /* bind/define data after a call: not walked */
    STOP_CUT,          /* the capture cut this packet short (snaplen) */
    STOP_AFTER_CUT     /* an earlier packet of this request/response was cut */
} stop_t;

typedef struct ttc_pdu_rec {
    ttc_state_t start;         /* decoder state before this packet's messages */
    guint8  *joined;           /* a message begun in earlier packets, ended here */
    guint32  joined_len;
    guint32  joined_prefix;    /* bytes of `joined` from earlier packets */
    gint32   body_off;         /* first message starting in this payload; -1 none */
    gint32   stop_off;         /* where decoding stopped; -1 = end of payload */
    gint32   resync_off;       /* server: a final end-of-call status found after an
                                * undecoded stretch, decoded from here; -1 none */
    guint8   stop;             /* stop_t */
    gboolean decoded;          /* TTC decoding applies to this packet */
    ttc_request_t *req;
    ttc_response_t *resp;
    gboolean completes;        /* completes its response (server side) */
    gboolean carries_call;     /* the request's main call was decoded here */
    gboolean starts_request;   /* first TNS packet of its request */
    guint32  too_long;         /* a pending message was dropped here: its size so far */
    gboolean too_much_total;   /* ... because all conversations together hold too much */
    guint32  cursor_dropped;   /* cursor not remembered here (cap reached), 0 = none */
    guint32  reinferred_from;  /* the inferred dialect changed here: the frame it was
                                * inferred at, 0 = not changed here */
} ttc_pdu_rec_t;

static int proto_ttc_layer = -1;

/* Given once at registration (plugin.c): who hears of packets and of
 * responses that end. */
static const ttc_observer_t *stream_observer;

void
ttc_set_observer(const ttc_observer_t *observer)
{
    stream_observer = observer;
}

static int hf_ttc = -1;
static int hf_continuation = -1;
static int hf_continues = -1;
static int hf_call_data = -1;
static int hf_undecoded = -1;

static gint ett_ttc = -1;

static expert_field ei_undecoded = EI_INIT;
static expert_field ei_too_long = EI_INIT;
static expert_field ei_cursor_cap = EI_INIT;
static expert_field ei_inferred = EI_INIT;
static expert_field ei_reinferred = EI_INIT;
static expert_field ei_capture_cut = EI_INIT;
static int hf_cut = -1;

/* Bytes held in pending messages by all conversations of the capture file.
 * The one piece of state shared between conversations, because its cap must
 * bound what a capture of many conversations makes the plugin hold: it lives
 * in file scope, made anew by the init routine for every file. */
typedef struct {
    guint64 held;
} ttc_pending_budget_t;

static ttc_pending_budget_t *pending_budget;

static void
ttc_init(void)
{
    pending_budget = wmem_new0(wmem_file_scope(), ttc_pending_budget_t);
}

static void
ttc_cleanup(void)
{
    pending_budget = NULL;             /* freed with the file scope */
}

/* The message decoders (plugin.c gives them once at registration) and the
 * names of what they decode, made from their tables. */
static const ttc_decoder_ops_t *decoders;

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
    decoders = ops;
    names_from(ttc_msg_type_vals, ops->message_name);
    names_from(ttc_function_vals, ops->function_name);
}

/* ---- session ------------------------------------------------------------ */

/* Pending-message buffers are plain heap memory (they grow and shrink);
 * they go with the file scope. */
static sqlnet_wmem_cb_result_t
free_pending_buffers(wmem_allocator_t *allocator _U_, wmem_cb_event_t event _U_, void *user_data)
{
    ttc_session_t *ts = (ttc_session_t *)user_data;
    g_free(ts->dir[0].pending);
    g_free(ts->dir[1].pending);
    ts->dir[0].pending = ts->dir[1].pending = NULL;
    return FALSE;
}

ttc_session_t *
ttc_session(sqlnet_session_t *sess)
{
    ttc_session_t *ts = (ttc_session_t *)sess->ttc;
    if (!ts) {
        ts = wmem_new0(wmem_file_scope(), ttc_session_t);
        wmem_register_callback(wmem_file_scope(), free_pending_buffers, ts);
        /* Until the handshake says otherwise: thin, universal, 12.1 fields. */
        ttc_dialect_init_universal(&ts->dialect, 7);
        ts->dialect.known = FALSE;
        ts->dialect.fv_client = ts->dialect.fv_server = 0;   /* not negotiated yet */
        ts->dialect_ptr = wmem_memdup(wmem_file_scope(), &ts->dialect, sizeof(ts->dialect));
        ts->responses = wmem_tree_new(wmem_file_scope());
        ts->cursors = wmem_map_new(wmem_file_scope(), g_direct_hash, g_direct_equal);
        ts->dir[0].state.dialect = ts->dir[1].state.dialect = ts->dialect_ptr;
        sess->ttc = ts;
    }
    return ts;
}

/* The session, noting the frame that made it: timing.c's ACK tap takes the
 * frames from there on only, in every pass (a single pass has no session,
 * so no ACK samples, before it; the second pass of -2 would). */
static ttc_session_t *
ttc_session_at(sqlnet_session_t *sess, packet_info *pinfo)
{
    ttc_session_t *ts = ttc_session(sess);
    if (!ts->ack_from)
        ts->ack_from = pinfo->num;
    return ts;
}

/* The dialect a decoder's update settles for the session. */
static void
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

static void
set_dialect(ttc_session_t *ts, const sqlnet_session_t *sess, const ttc_dialect_t *d)
{
    resolve_dialect(&ts->dialect, sess, d);
    ts->dialect_ptr = wmem_memdup(wmem_file_scope(), &ts->dialect, sizeof(ts->dialect));
    ts->dir[0].state.dialect = ts->dir[1].state.dialect = ts->dialect_ptr;
}

static gint decode_range(tvbuff_t *tvb, gint off, gint end, ttc_state_t *st, proto_tree *tree,
                         packet_info *pinfo, sqlnet_dir_t dir, ttc_session_t *ts,
                         const sqlnet_session_t *sess, ttc_pdu_rec_t *rec, gboolean first_pass,
                         stop_t *stop, gboolean one_message);

/* Dialects a conversation without a handshake may speak, most specific
 * first.  A client call alone does not always tell them apart (OCI's native
 * OALL8 text is found by a search, so several field versions fit it): the
 * server's first reply decides among those that fit the call. */
static const struct { gboolean native; guint8 fv; guint8 ptr; } infer_cand[] = {
    { FALSE, TTC_FV_23_4,       0 },   /* thin 23ai: token in every call header */
    { FALSE, TTC_FV_19_1,       0 },   /* thin 12c-21c */
    { TRUE,  TTC_FV_23_1_EXT_5, 8 },   /* OCI 23 (64-bit) */
    { TRUE,  TTC_FV_10_2,       8 },   /* OCI 11g (64-bit) */
    { TRUE,  TTC_FV_9_2,        1 },   /* OCI 10g */
    { TRUE,  TTC_FV_11_2,       1 },   /* OCI 11.2, one-byte pointers (SQL*Plus 11.2 on 32-bit Linux) */
};

static void
candidate_dialect(ttc_dialect_t *d, guint i)
{
    ttc_dialect_init_universal(d, infer_cand[i].fv);
    d->native = infer_cand[i].native;
    d->ub2_width = 2;
    d->ub4_width = 4;
    d->ptr_width = infer_cand[i].ptr;
    d->big_chunk = infer_cand[i].fv >= TTC_FV_12_1;
    d->fv_client = d->fv_server = infer_cand[i].fv;
}

/* Values no client sends: a call read under the wrong dialect takes text
 * or pointers for counts (junkie SQL*Plus 10.1 frame 33 read with 8-byte
 * pointers: 1111760974 prefetch rows, 1230982735 binds). */
#define TTC_INFER_MAX_COUNT (1u << 24)

/* SQL text as a client sends it: printable (UTF-8 allowed), starting with a
 * keyword, a comment or a JDBC escape ("{call ...}") after blanks or
 * parentheses. */
static gboolean
plausible_sql(const char *sql)
{
    const guchar *p = (const guchar *)sql;

    if (!sql)
        return FALSE;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' || *p == '(')
        p++;
    if (!g_ascii_isalpha(*p) && !(p[0] == '/' && p[1] == '*') && !(p[0] == '-' && p[1] == '-') && *p != '{')
        return FALSE;
    for (; *p; p++)
        if (*p < 0x20 && *p != '\t' && *p != '\r' && *p != '\n')
            return FALSE;
    return TRUE;
}

/* A call whose values fit what clients send. */
static gboolean
plausible_call(const ttc_call_t *c)
{
    if (c->has_cursor && c->cursor > TTC_INFER_MAX_COUNT)
        return FALSE;
    if (c->has_fetch_rows && c->fetch_rows > TTC_INFER_MAX_COUNT)
        return FALSE;
    if (c->func == TTC_FN_OALL8) {
        if (c->prefetch > TTC_INFER_MAX_COUNT || c->exec_count > TTC_INFER_MAX_COUNT ||
            c->bind_values > TTC_INFER_MAX_COUNT)
            return FALSE;
        /* a new statement (cursor 0) carries its text */
        if (c->cursor == 0 && !plausible_sql(c->sql))
            return FALSE;
        if (c->sql && !plausible_sql(c->sql))
            return FALSE;
    }
    return TRUE;
}

enum { FIT_NONE = 0, FIT_SEARCHED = 1, FIT_EXACT = 2 };

/* How well the client's message sequence (piggybacks, the call, up to its
 * bind values or the end of the payload) decodes under dialect d: FIT_NONE
 * when a message does not decode, no function call is found or a call's
 * values are implausible; FIT_SEARCHED when an OCI OALL8's text had to be
 * searched for (the dialect's header layout does not put it there);
 * FIT_EXACT otherwise.  Trial decodes only. */
static guint
call_score(const ttc_session_t *ts, tvbuff_t *payload, gint end, packet_info *pinfo, const ttc_dialect_t *d)
{
    ttc_state_t st = ts->dir[SQLNET_TO_SERVER].state;
    gboolean call = FALSE, searched = FALSE;
    gint off = 0;
    guint n;

    st.dialect = d;
    for (n = 0; n < 64 && off < end; n++) {
        ttc_rd_t r;
        ttc_msg_result_t res;
        memset(&res, 0, sizeof(res));
        ttc_rd_init(&r, payload, off, end, d);
        r.strict = TRUE;
        decoders->decode_client(&r, NULL, pinfo, &st, &res, pinfo->pool);
        if (!ttc_rd_ok(&r) || r.off <= off)
            return FIT_NONE;
        if (res.is_call && res.call.kind == TTC_REQ_FUNCTION) {
            if (!try_val_to_str(res.call.func, ttc_function_vals) || !plausible_call(&res.call))
                return FIT_NONE;
            call = TRUE;
        }
        searched |= res.sql_searched;
        off = r.off;
        if (res.stop)
            break;
    }
    if (!call)
        return FIT_NONE;
    return searched ? FIT_SEARCHED : FIT_EXACT;
}

/* Does the client's call decode under candidate i, and how well? */
static guint
call_fits(const ttc_session_t *ts, tvbuff_t *payload, gint end, packet_info *pinfo, guint i)
{
    ttc_dialect_t d;

    candidate_dialect(&d, i);
    return call_score(ts, payload, end, pinfo, &d);
}

/* A client payload that can be evidence: whole, starting with a call or a
 * piggyback. */
static gboolean
call_payload(tvbuff_t *payload, gint *end)
{
    guint8 first;

    *end = (gint)tvb_captured_length(payload);
    if (*end < 3 || *end < (gint)tvb_reported_length(payload))
        return FALSE;
    first = tvb_get_uint8(payload, 0);
    return first == TTC_MSG_FUNCTION || first == TTC_MSG_PIGGYBACK;
}

/* No handshake in the capture: choose the integer encoding and field
 * version under which the client's first call (after its piggybacks)
 * decodes with plausible values, preferring one under which an OCI
 * statement's text sits where the layout puts it; remember the others that
 * fit for later calls and the first reply to decide
 * (narrow_inferred_dialect, verify_inferred_dialect). */
static gboolean
infer_dialect(ttc_session_t *ts, const sqlnet_session_t *sess, tvbuff_t *payload, packet_info *pinfo)
{
    /* A call the snaplen cut short is no evidence (a candidate that stops
     * early, as native auth calls do, would fit it): the next whole call
     * decides. */
    gint end;
    guint i, best = 0, chosen = G_N_ELEMENTS(infer_cand);

    if (!call_payload(payload, &end))
        return FALSE;
    ts->infer_fits = 0;
    for (i = 0; i < G_N_ELEMENTS(infer_cand); i++) {
        guint score = call_fits(ts, payload, end, pinfo, i);
        if (score == FIT_NONE)
            continue;
        ts->infer_fits |= 1u << i;
        if (score > best) {
            best = score;
            chosen = i;
        }
    }
    if (chosen == G_N_ELEMENTS(infer_cand))
        return FALSE;
    {
        ttc_dialect_t d;
        candidate_dialect(&d, chosen);
        d.known = d.inferred = TRUE;
        set_dialect(ts, sess, &d);
    }
    ts->infer_chosen = (guint8)chosen;
    ts->inferred_frame = pinfo->num;
    return TRUE;
}

/* Every whole call while the choice is not settled is more evidence: keep
 * the candidates that fit it too (when any does), and move off the chosen
 * one when it no longer fits.  A short call (OFETCH) fits most candidates;
 * an OALL8 tells field versions and pointer widths apart. */
static void
narrow_inferred_dialect(ttc_session_t *ts, const sqlnet_session_t *sess, tvbuff_t *payload, packet_info *pinfo)
{
    gint end;
    guint32 fits = 0;
    guint i, best = 0, best_i = 0, score_chosen = FIT_NONE;

    if (!call_payload(payload, &end))
        return;
    if (++ts->infer_replies > 4096) {  /* calls and replies that could not tell the rest apart */
        ts->infer_verify = FALSE;
        return;
    }
    for (i = 0; i < G_N_ELEMENTS(infer_cand); i++) {
        guint score;
        if (!(ts->infer_fits & (1u << i)))
            continue;
        score = call_fits(ts, payload, end, pinfo, i);
        if (score == FIT_NONE)
            continue;
        fits |= 1u << i;
        if (i == ts->infer_chosen)
            score_chosen = score;
        if (score > best) {
            best = score;
            best_i = i;
        }
    }
    if (fits == 0)
        return;
    ts->infer_fits = fits;
    if ((fits & (fits - 1)) == 0)
        ts->infer_verify = FALSE;     /* one candidate left */
    /* off the chosen one when it no longer fits, or when another puts an
     * OCI statement's text where its layout says and it does not */
    if (score_chosen < best) {
        ttc_dialect_t d;
        candidate_dialect(&d, best_i);
        d.known = d.inferred = TRUE;
        set_dialect(ts, sess, &d);
        ts->infer_chosen = (guint8)best_i;
    }
}

/* Server replies after an inferred dialect: a reply that does not decode
 * under the chosen candidate moves the choice to the first other candidate
 * still in the running that decodes it; a reply with a describe in it
 * (describes and rows are where field versions and pointer widths differ)
 * drops every candidate that fails it.  Verification ends when one
 * candidate is left (or after many replies that could not tell the rest
 * apart).  Trial decodes only: no tree, no side effects. */
static void
verify_inferred_dialect(ttc_session_t *ts, const sqlnet_session_t *sess, tvbuff_t *payload, gint end,
                        packet_info *pinfo)
{
    const ttc_state_t *now = &ts->dir[SQLNET_TO_CLIENT].state;
    ttc_state_t trial = *now;
    stop_t stop;
    guint i;
    guint32 keep = 0;
    gboolean chosen_ok, describes;

    if (++ts->infer_replies > 4096) {
        ts->infer_verify = FALSE;
        return;
    }
    trial.dialect = ts->dialect_ptr;
    decode_range(payload, 0, end, &trial, NULL, pinfo, SQLNET_TO_CLIENT, ts, sess, NULL, FALSE, &stop, FALSE);
    chosen_ok = stop != STOP_BAD;
    describes = stop == STOP_END && trial.describe != now->describe;
    if (chosen_ok && !describes)
        return;
    for (i = 0; i < G_N_ELEMENTS(infer_cand); i++) {
        ttc_dialect_t d;
        if (i == ts->infer_chosen || !(ts->infer_fits & (1u << i)))
            continue;
        candidate_dialect(&d, i);
        d.known = d.inferred = TRUE;
        trial = *now;
        trial.dialect = &d;
        decode_range(payload, 0, end, &trial, NULL, pinfo, SQLNET_TO_CLIENT, ts, sess, NULL, FALSE, &stop, FALSE);
        if (stop == STOP_END || stop == STOP_NEED_MORE)
            keep |= 1u << i;
    }
    if (chosen_ok)
        keep |= 1u << ts->infer_chosen;
    if (keep == 0)
        return;                       /* nothing decodes it: no evidence either way */
    ts->infer_fits = keep;
    if (!chosen_ok) {
        ttc_dialect_t d;
        for (i = 0; !(keep & (1u << i)); i++)
            ;
        candidate_dialect(&d, i);
        d.known = d.inferred = TRUE;
        set_dialect(ts, sess, &d);
        ts->infer_chosen = (guint8)i;
    }
    if ((keep & (keep - 1)) == 0)
        ts->infer_verify = FALSE;     /* one candidate left */
}

/* The cursor map is capped (preference max_cursors): a cursor beyond the
 * cap is not remembered, and the packet that met the cap says so. */
static ttc_cursor_t *
cursor_get(ttc_session_t *ts, guint32 id, gboolean create, ttc_pdu_rec_t *rec)
{
    ttc_cursor_t *c = (ttc_cursor_t *)wmem_map_lookup(ts->cursors, GUINT_TO_POINTER(id));
    if (!c && create) {
        if (ts->ncursors >= sqlnet_prefs()->max_cursors) {
            if (rec)
                rec->cursor_dropped = id ? id : G_MAXUINT32;
            return NULL;
        }
        c = wmem_new0(wmem_file_scope(), ttc_cursor_t);
        wmem_map_insert(ts->cursors, GUINT_TO_POINTER(id), c);
        ts->ncursors++;
    }
    return c;
}

/* Append len captured bytes of tvb at off to the stream's pending message;
 * FALSE when all conversations together would hold more than the cap. */
static gboolean
pending_append(ttc_stream_t *s, tvbuff_t *tvb, gint off, guint32 len)
{
    guint32 need = s->pending_len + len;
    if (need > s->pending_cap) {
        guint32 cap = MAX(need, MIN(MAX(s->pending_cap * 2u, 256u), TTC_MAX_PENDING));
        if (pending_budget && pending_budget->held - s->pending_cap + cap > TTC_MAX_PENDING_TOTAL)
            return FALSE;
        s->pending = (guint8 *)g_realloc(s->pending, cap);
        if (pending_budget)
            pending_budget->held = pending_budget->held - s->pending_cap + cap;
        s->pending_cap = cap;
    }
    tvb_memcpy(tvb, s->pending + s->pending_len, off, len);
    s->pending_len = need;
    return TRUE;
}

/* The pending message is done with; a large buffer is given back. */
static void
pending_drop(ttc_stream_t *s)
{
    s->pending_len = 0;
    s->pending_work = 0;
    if (s->pending_cap > TTC_PENDING_KEEP) {
        if (pending_budget)
            pending_budget->held -= s->pending_cap;
        g_free(s->pending);
        s->pending = NULL;
        s->pending_cap = 0;
    }
}

/* First pass: the request (client) or response (server) this stream is in
 * was not decoded to its end; the first reason is kept. */
static void
mark_partial(ttc_session_t *ts, sqlnet_dir_t dir, ttc_partial_t why)
{
    if (dir == SQLNET_TO_CLIENT) {
        if (ts->resp && !ts->resp->partial)
            ts->resp->partial = (guint8)why;
    } else if (ts->req && !ts->req->response && !ts->req->partial) {
        ts->req->partial = (guint8)why;
    }
}

/* ---- first-pass memory: decode in packet scope, keep what later packets need */

/* A describe decoded in packet scope, copied into file scope: later
 * responses of its cursor walk their rows with it.  Column names are shown
 * only where the describe is decoded, so they are not kept. */
static const ttc_describe_t *
describe_keep(const ttc_describe_t *d)
{
    ttc_describe_t *k = wmem_new(wmem_file_scope(), ttc_describe_t);
    guint32 i;

    k->ncols = d->ncols;
    k->kind = d->kind;
    k->has_lob = d->has_lob;
    k->cols = (ttc_column_t *)wmem_memdup(wmem_file_scope(), d->cols,
                                          sizeof(ttc_column_t) * MAX(d->ncols, 1u));
    for (i = 0; i < d->ncols; i++) {
        k->cols[i].name = NULL;
        /* an object column's type name: shown on its values in later rows */
        if (d->cols[i].type_name)
            k->cols[i].type_name = wmem_strdup(wmem_file_scope(), d->cols[i].type_name);
    }
    return k;
}

/* End of a packet's first pass: the bit vector in force for the next row
 * (decoded in packet scope) moves into file scope; an equal one kept
 * before is reused, so a result set costs one copy, not one per packet. */
static void
state_keep(ttc_stream_t *s)
{
    ttc_state_t *st = &s->state;

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

/* ---- request / response bookkeeping (first pass only) ------------------- */

static void
close_response(ttc_session_t *ts, packet_info *pinfo, guint32 frame, const nstime_t *when, gboolean complete)
{
    ttc_response_t *resp = ts->resp;
    if (!resp)
        return;
    resp->last_frame = frame;
    resp->last_time = *when;
    resp->complete = complete;
    ts->last_close_frame = frame;
    ts->resp = NULL;
    /* the next call's client time starts here */
    ts->last_resp_end = resp->last_time;
    ts->has_last_resp_end = TRUE;
    if (stream_observer && stream_observer->response_closed)
        stream_observer->response_closed(pinfo, ts, resp);
    /* An execute answered without a cursor id (its end-of-call status was
     * cut off or not decoded): the cursor is learned from the next call
     * that names a cursor not seen before. */
    if (resp->req && ttc_req_executes(resp->req) && !resp->has_oer &&
        !(resp->req->call.has_cursor && resp->req->call.cursor != 0))
        ts->unbound = resp->req;
    /* A new response starts a clean row state on the server stream. */
    ts->dir[SQLNET_TO_CLIENT].state.bitvec = NULL;
    ts->dir[SQLNET_TO_CLIENT].state.bitvec_len = 0;
}

static ttc_response_t *
open_response(ttc_session_t *ts, packet_info *pinfo)
{
    ttc_response_t *resp;
    ttc_stream_t *cs = &ts->dir[SQLNET_TO_SERVER];

    if (ts->resp)
        return ts->resp;
    resp = wmem_new0(wmem_file_scope(), ttc_response_t);
    resp->first_frame = pinfo->num;
    resp->first_time = pinfo->abs_ts;
    if (ts->pending_segments > 0) {
        /* it began in an earlier segment (its first TNS packet spanned
         * segments): those segments and its first byte's time */
        resp->segments = ts->pending_segments;
        resp->first_frame = ts->next_first_frame;
        resp->first_time = ts->next_first_time;
        resp->multi_segment_packet = ts->pending_unseen;
        resp->largest_segment = ts->pending_largest_segment;
        ts->pending_segments = 0;
        ts->pending_unseen = FALSE;
        ts->pending_largest_segment = 0;
    }
    /* Responses answer requests in the order they were sent. */
    if (ts->waiting) {
        resp->req = ts->waiting;
        ts->waiting->response = resp;
        ts->waiting = ts->waiting->next_waiting;
        if (!ts->waiting)
            ts->waiting_last = NULL;
    }
    /* The frames from the one after its request (or after the previous
     * response) on are its: a later pass finds its segments there. */
    resp->cover_from = resp->req ? resp->req->frame + 1 : resp->first_frame;
    if (ts->last_close_frame + 1 > resp->cover_from)
        resp->cover_from = ts->last_close_frame + 1;
    if (resp->cover_from > resp->first_frame)
        resp->cover_from = resp->first_frame;
    wmem_tree_insert32(ts->responses, resp->cover_from, resp);
    ts->resp = resp;
    /* The latest request is over: whatever of it was still pending stays
     * undecoded (in a pipeline the client may be sending the next one). */
    if (resp->req == ts->req) {
        /* ... and the round trip was not decoded to its end (an OALL7
         * shorter than its counts say, any call cut short by the client) */
        if (cs->pending_len > 0 && resp->req && !resp->req->partial)
            resp->req->partial = (guint8)TTC_PARTIAL_UNDECODED;
        pending_drop(cs);
        cs->opaque = FALSE;
    }
    /* The server stream starts afresh with the new response. */
    ts->dir[SQLNET_TO_CLIENT].opaque = FALSE;
    pending_drop(&ts->dir[SQLNET_TO_CLIENT]);
    ts->dir[SQLNET_TO_CLIENT].state.req = resp->req;
    ts->dir[SQLNET_TO_CLIENT].state.resp = resp;
    if (resp->req && resp->req->call.has_cursor && resp->req->call.cursor != 0) {
        ttc_cursor_t *c = cursor_get(ts, resp->req->call.cursor, FALSE, NULL);
        if (c && c->describe && !(resp->req->call.func == TTC_FN_OALL8 && resp->req->call.sql))
            ts->dir[SQLNET_TO_CLIENT].state.describe = c->describe;
    }
    /* A define call: the cursor's columns as the client defined them (what
     * its LOB values carry: JDBC's LOB prefetch). */
    if (resp->req && resp->req->call.defines && ts->dir[SQLNET_TO_CLIENT].state.describe) {
        const ttc_describe_t *cur = ts->dir[SQLNET_TO_CLIENT].state.describe;
        const ttc_describe_t *def = resp->req->call.defines;
        if (cur->kind == TTC_ROWS_COLUMNS && cur->has_lob) {
            ttc_describe_t *m = (ttc_describe_t *)describe_keep(cur);
            guint32 i;
            for (i = 0; i < m->ncols && i < def->ncols; i++)
                m->cols[i].lob_prefetch = def->cols[i].lob_prefetch;
            ts->dir[SQLNET_TO_CLIENT].state.describe = m;
            if (resp->req->call.has_cursor && resp->req->call.cursor) {
                ttc_cursor_t *c = cursor_get(ts, resp->req->call.cursor, FALSE, NULL);
                if (c)
                    c->describe = m;
            }
        }
    }
    /* DML RETURNING: the rows that come back are the return binds' values
     * (python-oracledb ExecuteMessage.preprocess: out vars = return binds). */
    if (resp->req && resp->req->call.binds && resp->req->call.returning_binds) {
        const ttc_describe_t *b = resp->req->call.binds;
        ttc_describe_t *rb = wmem_new0(wmem_file_scope(), ttc_describe_t);
        rb->kind = TTC_ROWS_RETURNING;
        rb->ncols = resp->req->call.returning_binds;
        rb->cols = b->cols + (b->ncols - rb->ncols);
        ts->dir[SQLNET_TO_CLIENT].state.describe = rb;
    }
    return resp;
}

static ttc_request_t *
open_request(ttc_session_t *ts, packet_info *pinfo, ttc_req_kind_t kind)
{
    ttc_request_t *req;

    gboolean pipelined = ts->req && ts->req->ended;

    if (ts->req && !ts->req->response && !ts->req->ended)
        return ts->req;                /* still the same request */
    req = wmem_new0(wmem_file_scope(), ttc_request_t);
    /* A new request cuts the open response short, unless the client is
     * pipelining (23ai: each request ended by the end-of-request flag, the
     * responses follow in order, each ended by the end-of-response flag). */
    if (ts->resp && !pipelined) {
        req->closed = ts->resp;
        close_response(ts, pinfo, ts->resp->last_frame ? ts->resp->last_frame : pinfo->num,
                       &ts->resp->last_time, FALSE);
    }
    if (!pipelined)
        ts->waiting = ts->waiting_last = NULL;   /* unanswered requests stay so */
    if (ts->waiting_last)
        ts->waiting_last->next_waiting = req;
    else
        ts->waiting = req;
    ts->waiting_last = req;
    req->call.kind = kind;
    req->first_frame = req->frame = pinfo->num;
    req->last_time = req->first_time = pinfo->abs_ts;
    req->prev_end = ts->last_resp_end;
    req->has_prev_end = ts->has_last_resp_end;
    ts->req = req;
    ts->nrequests++;
    pending_drop(&ts->dir[SQLNET_TO_SERVER]);
    ts->dir[SQLNET_TO_SERVER].opaque = FALSE;
    ts->dir[SQLNET_TO_SERVER].state.req = req;
    return req;
}

void
ttc_sides_changed(sqlnet_session_t *sess)
{
    ttc_session_t *ts = (ttc_session_t *)sess->ttc;
    guint d;

    if (!ts)
        return;
    /* What was taken for requests and responses came from the other side:
     * start both streams afresh (the packets before keep their records). */
    for (d = 0; d < 2; d++) {
        pending_drop(&ts->dir[d]);
        ts->dir[d].opaque = ts->dir[d].opaque_cut = FALSE;
        ts->dir[d].state.req = NULL;
        ts->dir[d].state.resp = NULL;
        ts->dir[d].state.describe = NULL;
        ts->dir[d].state.bitvec = NULL;
        ts->dir[d].state.bitvec_len = 0;
    }
    ts->req = NULL;
    ts->resp = NULL;
    ts->waiting = ts->waiting_last = NULL;
    if (ts->dialect.inferred) {
        /* inferred from a server packet taken for a call: infer again */
        ts->dialect.known = ts->dialect.inferred = FALSE;
        ts->infer_verify = FALSE;
        ts->inferred_frame = 0;
    }
}

/* The response a server frame belongs to: the open one, or (a revisit, a
 * tap in a later pass) the one whose frames it falls between. */
/* ttc_count_segment()'s per-frame marker (0: not counted yet). */
enum { SEG_LEN_KNOWN = 1, SEG_LEN_PENDING = 2 };

static ttc_response_t *
response_covering(ttc_session_t *ts, guint32 frame)
{
    ttc_response_t *resp = (ttc_response_t *)wmem_tree_lookup32_le(ts->responses, frame);
    if (!resp || frame < resp->cover_from)
        return NULL;
    if (resp->last_frame && frame > resp->last_frame && resp->complete)
        return NULL;
    if (ts->resp != resp && resp->last_frame && frame > resp->last_frame)
        return NULL;
    return resp;
}

void
ttc_count_segment(packet_info *pinfo, ttc_session_t *ts, gboolean unseen, guint32 seglen)
{
    ttc_response_t *resp;

    /* once per frame, whichever of the dissector and the tap (in whichever
     * pass: tshark -2 runs taps on its second pass only) sees it first; the
     * largest segment from either (the dissector does not know a segment's
     * length when TCP hands it a reassembled PDU) */
    /* The marker: SEG_LEN_KNOWN once the segment's length has been counted,
     * SEG_LEN_PENDING while only the tap can still give it (one lookup more,
     * once, for those frames only). */
    switch (GPOINTER_TO_UINT(p_get_proto_data(wmem_file_scope(), pinfo, sqlnet_proto(), SQLNET_KEY_SEGMENT))) {
    case SEG_LEN_KNOWN:
        return;
    case SEG_LEN_PENDING:
        if (seglen > 0) {
            p_set_proto_data(wmem_file_scope(), pinfo, sqlnet_proto(), SQLNET_KEY_SEGMENT,
                             GUINT_TO_POINTER(SEG_LEN_KNOWN));
            resp = response_covering(ts, pinfo->num);
            if (resp && seglen > resp->largest_segment)
                resp->largest_segment = seglen;
            else if (!resp && !ts->resp && ts->waiting && seglen > ts->pending_largest_segment)
                ts->pending_largest_segment = seglen;
        }
        return;
    default:
        break;
    }
    p_add_proto_data(wmem_file_scope(), pinfo, sqlnet_proto(), SQLNET_KEY_SEGMENT,
                     GUINT_TO_POINTER(seglen > 0 ? SEG_LEN_KNOWN : SEG_LEN_PENDING));
    resp = response_covering(ts, pinfo->num);
    if (resp) {
        resp->segments++;
        if (seglen > resp->largest_segment)
            resp->largest_segment = seglen;
        if (unseen)                    /* part of a TNS packet (or TLS record) TCP reassembled */
            resp->multi_segment_packet = TRUE;
        if (pinfo->num < resp->first_frame) {
            resp->first_frame = pinfo->num;     /* a later pass that runs the taps (tshark -2) */
            resp->first_time = pinfo->abs_ts;
        }
        return;
    }
    if (ts->resp || ts->waiting == NULL)
        return;                        /* no answer awaited: not a response's */
    if (ts->pending_segments++ == 0) {
        ts->next_first_frame = pinfo->num;
        ts->next_first_time = pinfo->abs_ts;
    }
    ts->pending_unseen |= unseen;
    if (seglen > ts->pending_largest_segment)
        ts->pending_largest_segment = seglen;
}

/* The listener on "tcp": a server segment that TCP keeps inside a
 * reassembly never reaches sqlnet; it is counted here (with those that do,
 * once per frame: ttc_count_segment). */
static tap_packet_status
tcp_segment_tap(void *tapdata _U_, packet_info *pinfo, epan_dissect_t *edt _U_,
                const void *data, tap_flags_t flags _U_)
{
    const struct tcpheader *th = (const struct tcpheader *)data;
    sqlnet_session_t *sess;

    if (!th || !th->th_have_seglen || th->th_seglen == 0)
        return TAP_PACKET_DONT_REDRAW;
    sess = session_of_tcp_segment(pinfo, th);
    if (!sess)
        return TAP_PACKET_DONT_REDRAW;
    if (th->th_sport != sess->srv_port || !addresses_equal(&th->ip_src, &sess->srv_addr))
        return TAP_PACKET_DONT_REDRAW;
    ttc_count_segment(pinfo, (ttc_session_t *)sess->ttc, TRUE, th->th_seglen);
    return TAP_PACKET_DONT_REDRAW;
}

void
ttc_handoff(void)
{
    GString *err = register_tap_listener("tcp", NULL, NULL, TL_REQUIRES_NOTHING, NULL, tcp_segment_tap,
                                         NULL, NULL);
    if (err)
        g_string_free(err, TRUE);
}

void
ttc_note_segment(packet_info *pinfo, sqlnet_session_t *sess, guint32 seglen)
{
    if (PINFO_FD_VISITED(pinfo) || !session_ttc_active(sess, pinfo) ||
        session_direction(sess, pinfo) != SQLNET_TO_CLIENT)
        return;
    ttc_count_segment(pinfo, ttc_session_at(sess, pinfo), FALSE, seglen);
}
/* A client packet of the request: its frame, time and byte counts. */
static void
request_add_packet(ttc_request_t *req, packet_info *pinfo, guint32 tns_len, guint16 data_flags)
{
    req->frame = pinfo->num;
    req->last_time = pinfo->abs_ts;
    req->tns_packets++;
    req->tns_bytes += tns_len;
    req->ttc_bytes += tns_data_bytes(tns_len);
    if (data_flags & TNS_DF_END_OF_REQUEST)
        req->ended = TRUE;
}


void
ttc_note_packet(packet_info *pinfo, sqlnet_session_t *sess, sqlnet_dir_t dir,
                guint8 type, guint32 tns_len, guint16 data_flags, gboolean is_ano)
{
    ttc_session_t *ts;
    ttc_response_t *resp;

    if (PINFO_FD_VISITED(pinfo))
        return;
    if (type == TNS_TYPE_ACCEPT && dir == SQLNET_TO_CLIENT) {
        /* The first call's client time starts here: the ACCEPT ends the
         * connect round trip. */
        ts = ttc_session_at(sess, pinfo);
        ts->last_resp_end = pinfo->abs_ts;
        ts->has_last_resp_end = TRUE;
        return;
    }
    if (!session_ttc_active(sess, pinfo))
        return;
    ts = ttc_session_at(sess, pinfo);
    if (stream_observer && stream_observer->packet)
        stream_observer->packet(pinfo, ts);
    if (dir == SQLNET_TO_SERVER) {
        ttc_request_t *req;
        if (type != TNS_TYPE_DATA || (data_flags & TNS_DF_EOF))
            return;                    /* markers answer a break; EOF ends the session */
        req = open_request(ts, pinfo, is_ano ? TTC_REQ_ANO : TTC_REQ_NONE);
        ts->client_prev_frame = req->frame;
        ts->client_prev_time = req->last_time;
        ts->pending_segments = 0;          /* what the server sends next answers it */
        ts->pending_largest_segment = 0;
        ts->pending_unseen = FALSE;
        request_add_packet(req, pinfo, tns_len, data_flags);
        return;
    }
    if (type != TNS_TYPE_DATA && type != TNS_TYPE_MARKER)
        return;
    ts->server_seen = TRUE;
    resp = open_response(ts, pinfo);
    resp->packets++;
    resp->bytes += tns_len;
    if (type == TNS_TYPE_MARKER) {
        resp->markers++;
    } else {
        resp->data_packets++;
        resp->ttc_bytes += tns_data_bytes(tns_len);
    }
    if (tns_len > resp->largest_packet)
        resp->largest_packet = tns_len;
    resp->last_frame = pinfo->num;     /* provisional until it completes */
    resp->last_time = pinfo->abs_ts;
    /* An ANO reply is the whole answer to an ANO request. */
    if (is_ano && ts->req && ts->req->call.kind == TTC_REQ_ANO)
        close_response(ts, pinfo, pinfo->num, &pinfo->abs_ts, TRUE);
}

/* ---- decoding ------------------------------------------------------------ */

static void
apply_client_result(ttc_session_t *ts, const sqlnet_session_t *sess, packet_info *pinfo,
                    ttc_msg_result_t *res, ttc_pdu_rec_t *rec)
{
    ttc_request_t *req = ts->req;

    if (res->dialect_update)
        set_dialect(ts, sess, &res->dialect);
    if (!res->is_call || !req || req->response)
        return;
    /* PRO (and DTY) followed by a call in the same request: ojdbc 23 with a
     * connection cookie sends PRO, cookie (message 30), DTY and OSESSKEY
     * together (T4CConnection.cookieBasedNegotiateSession); the call is the
     * request's, and the negotiation replies lead its response. */
    if ((req->call.kind == TTC_REQ_PROTOCOL || req->call.kind == TTC_REQ_DATA_TYPES) &&
        res->call.kind == TTC_REQ_FUNCTION) {
        req->negotiates = TRUE;
        req->call.kind = TTC_REQ_NONE;
    }
    if (req->call.kind == TTC_REQ_NONE || req->call.kind == TTC_REQ_FUNCTION) {
        const ttc_call_t *c = &res->call;
        if (req->call.kind == TTC_REQ_FUNCTION)
            return;                    /* keep the first call of a request */
        req->call = *c;
        /* what the decoder found lives in packet scope */
        if (c->sql)
            req->call.sql = wmem_strdup(wmem_file_scope(), c->sql);
        if (c->binds)
            req->call.binds = describe_keep(c->binds);
        if (c->defines)
            req->call.defines = describe_keep(c->defines);
        req->stmt_sql = req->call.sql;
        if (req->call.has_cursor && req->call.cursor && ts->unbound && !ttc_req_executes(req) &&
            (!cursor_get(ts, req->call.cursor, FALSE, NULL) || (!ts->server_seen && !sess->accept_frame))) {
            /* The first call on a cursor never seen, after an execute whose
             * response did not name its cursor: the cursor is that one's.
             * With the client's packets alone, the first call on any cursor
             * (the server reuses the ids of closed cursors). */
            ttc_cursor_t *cur = cursor_get(ts, req->call.cursor, TRUE, rec);
            if (cur) {
                cur->sql = ts->unbound->call.sql;
                cur->execution = ts->unbound->execution;
            }
            ts->unbound = NULL;
        }
        if (!req->stmt_sql && req->call.has_cursor && req->call.cursor) {
            ttc_cursor_t *cur = cursor_get(ts, req->call.cursor, FALSE, NULL);
            if (cur)
                req->stmt_sql = cur->sql;
        }
        /* A fetch that does not execute: the client wants rows still to come
         * (the cursor's last end-of-call status did not end the result set). */
        if (req->call.has_fetch_rows && !ttc_req_executes(req)) {
            ttc_cursor_t *cur = req->call.has_cursor && req->call.cursor ? cursor_get(ts, req->call.cursor, FALSE, NULL) : NULL;
            req->fetch_more = !(cur && cur->exhausted);
        }
        /* Executions: an execute starts one; fetches continue their cursor's. */
        if (ttc_req_executes(req)) {
            req->execution = ++ts->executions;
            ts->unbound = NULL;
            if (req->call.has_cursor && req->call.cursor) {
                ttc_cursor_t *cur = cursor_get(ts, req->call.cursor, TRUE, rec);
                if (cur) {
                    cur->execution = req->execution;
                    if (req->call.sql)
                        cur->sql = req->call.sql;   /* OCI: the call names its cursor */
                    else if (cur->sql && !req->stmt_sql)
                        req->stmt_sql = cur->sql;   /* OALL7 after OPARSE */
                }
            }
        } else if ((req->call.func == TTC_FN_PARSE || req->call.func == TTC_FN_OALL7) && req->call.has_cursor &&
                   req->call.cursor && req->call.sql) {
            /* OCI's parse (or a parse-only OALL7) names the statement its cursor will execute */
            ttc_cursor_t *cur = cursor_get(ts, req->call.cursor, TRUE, rec);
            if (cur)
                cur->sql = req->call.sql;
        } else if (req->call.has_cursor && req->call.cursor) {
            ttc_cursor_t *cur = cursor_get(ts, req->call.cursor, FALSE, NULL);
            if (cur)
                req->execution = cur->execution;
        } else if (req->call.func == TTC_FN_LOB_OP && ts->lob_execution) {
            /* A LOB read or write belongs to the statement whose rows brought
             * the locator: python-oracledb and JDBC read a row's LOBs as they
             * fetch it, so the latest execution whose rows carried locators. */
            req->execution = ts->lob_execution;
            req->stmt_sql = ts->lob_sql;
        }
        req->frame = pinfo->num;
        rec->carries_call = TRUE;
    }
}

static void
apply_server_result(ttc_session_t *ts, const sqlnet_session_t *sess, packet_info *pinfo,
                    ttc_msg_result_t *res, gint msg_len, const ttc_state_t *st, ttc_pdu_rec_t *rec)
{
    ttc_response_t *resp = ts->resp;
    ttc_request_t *req;

    if (res->dialect_update)
        set_dialect(ts, sess, &res->dialect);
    if (!resp)
        return;
    req = resp->req;
    if (res->row) {
        resp->rows++;
        if (st->describe && st->describe->has_lob && req && req->execution) {
            ts->lob_execution = req->execution;
            ts->lob_sql = req->stmt_sql;
        }
    }
    /* Row data of a result set (out-bind values are not rows). */
    if ((res->row || res->type == TTC_MSG_BIT_VECTOR) && msg_len > 0)
        resp->row_bytes += (guint32)msg_len;
    if (res->type == TTC_MSG_BIT_VECTOR && msg_len > 0)
        resp->bvc_bytes += (guint32)msg_len;
    if (st->describe)
        resp->describe = st->describe;
    /* Cursors the reply opened (REF cursors, implicit results): their
     * fetches walk rows with the describe that came with them and count
     * as an execution of the statement that opened them. */
    for (guint32 i = 0; i < res->ncursors; i++) {
        ttc_cursor_t *c = cursor_get(ts, res->cursors[i].id, TRUE, rec);
        if (c) {
            c->describe = describe_keep(res->cursors[i].describe);
            c->sql = req ? (req->stmt_sql ? req->stmt_sql : req->call.sql) : NULL;
            c->execution = req ? req->execution : 0;
            c->rowcount = 0;
        }
    }
    if (res->has_oer) {
        resp->has_oer = TRUE;
        resp->cursor = res->oer_cursor;
        resp->rowcount = res->oer_rowcount;
        resp->ora_error = res->oer_error;
        resp->call_status = res->call_status;
        if (res->oer_message)
            resp->ora_message = wmem_strdup(wmem_file_scope(), res->oer_message);
        if (res->oer_cursor != 0) {
            ttc_cursor_t *c = cursor_get(ts, res->oer_cursor, TRUE, rec);
            if (c) {
                if (req && req->execution && req->call.func == TTC_FN_OALL8)
                    c->execution = req->execution;   /* cursor id known only now */
                if (req && req->call.sql)
                    c->sql = req->call.sql;
                if (st->describe && req && req->call.func == TTC_FN_OALL8)
                    c->describe = st->describe;
                c->rowcount = res->oer_rowcount;
                c->exhausted = res->oer_error == TTC_ERR_NO_DATA_FOUND;
                if (req && !req->stmt_sql)
                    req->stmt_sql = c->sql;
            }
        }
    }
    /* Inside a fast-auth reply the PRO and DTY answers are only the start. */
    if ((res->type == TTC_MSG_PROTOCOL || res->type == TTC_MSG_DATA_TYPES) && req &&
        (req->call.kind == TTC_REQ_FAST_AUTH || req->negotiates))
        res->terminal = FALSE;
    if (res->eor ||
        (res->terminal && (!ts->dialect.eor ||
                           (req && (req->call.kind == TTC_REQ_PROTOCOL || req->call.kind == TTC_REQ_DATA_TYPES))))) {
        rec->completes = TRUE;
        close_response(ts, pinfo, pinfo->num, &pinfo->abs_ts, TRUE);
    }
}

/* Decode messages of [off, end) of tvb.  Returns the stop offset. */
static gint
decode_range(tvbuff_t *tvb, gint off, gint end, ttc_state_t *st, proto_tree *tree,
             packet_info *pinfo, sqlnet_dir_t dir, ttc_session_t *ts,
             const sqlnet_session_t *sess, ttc_pdu_rec_t *rec, gboolean first_pass,
             stop_t *stop, gboolean one_message)
{
    /* Decoded values live as long as the packet; what later packets need
     * (a describe, the state at the end of the packet) is copied out. */
    wmem_allocator_t *scope = pinfo->pool;
    guint n = 0;

    *stop = STOP_END;
    while (off < end) {
        ttc_rd_t r;
        ttc_msg_result_t res;
        ttc_state_t tmp = *st;

        memset(&res, 0, sizeof(res));
        ttc_rd_init(&r, tvb, off, end, st->dialect);
        /* The first pass finds message boundaries without a tree; display
         * passes decode ranges already known to hold whole messages. */
        if (dir == SQLNET_TO_SERVER)
            decoders->decode_client(&r, tree, pinfo, &tmp, &res, scope);
        else
            decoders->decode_server(&r, tree, pinfo, &tmp, &res, scope);
        if (r.need_more) {
            *stop = STOP_NEED_MORE;
            return off;
        }
        if (r.bad) {
            *stop = STOP_BAD;
            return off;
        }
        if (first_pass && tmp.describe && tmp.describe != st->describe)
            tmp.describe = describe_keep(tmp.describe);
        *st = tmp;
        if (first_pass) {
            if (dir == SQLNET_TO_SERVER)
                apply_client_result(ts, sess, pinfo, &res, rec);
            else
                apply_server_result(ts, sess, pinfo, &res, r.off - off, st, rec);
            st->dialect = ts->dialect_ptr;
        } else if (res.dialect_update) {
            /* Display passes start from the state at the packet's start: a
             * negotiation followed by more messages in one packet (ojdbc's
             * PRO, cookie, DTY and call) changes the dialect of the rest. */
            ttc_dialect_t *d = wmem_new(scope, ttc_dialect_t);
            resolve_dialect(d, sess, &res.dialect);
            st->dialect = d;
        }
        off = r.off;
        if (res.stop) {
            *stop = STOP_CALL_DATA;
            return off;
        }
        if (one_message || ++n > 1000000)
            break;
    }
    return off;
}

static void
add_stop_items(proto_tree *tree, tvbuff_t *payload, packet_info *pinfo, gint off, gint upto, stop_t stop)
{
    /* Items cover the captured bytes only; counts in the text are the
     * packet's (reported) bytes.  upto: -1 = to the end of the packet. */
    gint len = upto >= 0 ? upto - off : tvb_reported_length_remaining(payload, off);
    gint shown = upto >= 0 ? upto - off : tvb_captured_length_remaining(payload, off);
    proto_item *pi;

    if (len <= 0)
        return;
    if (shown < 0)
        shown = 0;
    switch (stop) {
    case STOP_NEED_MORE:
        proto_tree_add_item(tree, hf_continues, payload, off, shown, ENC_NA);
        break;
    case STOP_CALL_DATA:
        proto_tree_add_item(tree, hf_call_data, payload, off, shown, ENC_NA);
        break;
    case STOP_BAD:
        pi = proto_tree_add_item(tree, hf_undecoded, payload, off, shown, ENC_NA);
        if (shown > 0)
            expert_add_info_format(pinfo, pi, &ei_undecoded, upto >= 0
                                   ? "TTC message not decoded: bytes skipped until the end-of-call status"
                                   : "TTC message not decoded: bytes skipped until the next request or response");
        else
            expert_add_info_format(pinfo, pi, &ei_undecoded,
                                   "TTC data not decoded: bytes skipped until the next request or response");
        if (shown > 0)
            proto_item_append_text(pi, " (message type %u, %d bytes)", tvb_get_uint8(payload, off), len);
        break;
    case STOP_CUT:
        pi = proto_tree_add_item(tree, hf_cut, payload, off, shown, ENC_NA);
        expert_add_info_format(pinfo, pi, &ei_capture_cut,
                               "The capture cut this TNS packet short (snaplen): rows and bytes of this "
                               "round trip are lower bounds");
        proto_item_append_text(pi, " (%d bytes not captured)", len - shown);
        break;
    case STOP_AFTER_CUT:
        pi = proto_tree_add_item(tree, hf_cut, payload, off, shown, ENC_NA);
        expert_add_info_format(pinfo, pi, &ei_capture_cut,
                               "Not decoded: an earlier packet of this round trip was cut short by the capture "
                               "(snaplen); bytes skipped until the next request or response");
        break;
    default:
        break;
    }
}

static guint32
rec_key(tvbuff_t *tvb)
{
    return SQLNET_KEY_PDU(tvb_raw_offset(tvb));
}

/* First pass: a message could not be collected (too long, or all
 * conversations hold too much); the stream waits for the next request or
 * response. */
static void
drop_pending(ttc_session_t *ts, ttc_stream_t *s, sqlnet_dir_t dir, ttc_pdu_rec_t *rec,
             guint32 size, gboolean total)
{
    rec->too_long = size;
    rec->too_much_total = total;
    pending_drop(s);
    s->opaque = TRUE;
    s->opaque_cut = FALSE;
    s->opaque_call_data = FALSE;
    rec->stop = STOP_BAD;
    rec->stop_off = 0;
    mark_partial(ts, dir, TTC_PARTIAL_UNDECODED);
}

/* First pass: decoding cannot go on in this stream until the next request or
 * response; why, for the packets in between and for the round trip. */
static void
go_opaque(ttc_session_t *ts, ttc_stream_t *s, sqlnet_dir_t dir, stop_t why)
{
    s->opaque = TRUE;
    s->opaque_cut = why == STOP_CUT;
    s->opaque_call_data = why == STOP_CALL_DATA;
    if (why == STOP_CUT)
        mark_partial(ts, dir, TTC_PARTIAL_CUT);
    else if (why == STOP_BAD)
        mark_partial(ts, dir, TTC_PARTIAL_UNDECODED);
}

/* Candidates tried per packet when looking for a final end-of-call status. */
#define MAX_OER_CANDIDATES 4096

/* After an undecoded stretch of a response: the offset of an end-of-call
 * status (OER) that decodes and ends the packet (alone, or before the
 * end-of-response message), -1 if none.  A response's final OER names the
 * cursor and the cumulative row count, which later calls need. */
static gint
find_final_oer(tvbuff_t *tvb, gint from, gint end, const ttc_state_t *start, packet_info *pinfo)
{
    gint p;
    guint tries = 0;

    for (p = from; p < end && tries < MAX_OER_CANDIDATES; p++) {
        ttc_rd_t r;
        ttc_msg_result_t res;
        ttc_state_t st = *start;

        if (tvb_get_uint8(tvb, p) != TTC_MSG_ERROR)
            continue;
        tries++;
        memset(&res, 0, sizeof(res));
        ttc_rd_init(&r, tvb, p, end, start->dialect);
        r.strict = TRUE;
        decoders->decode_server(&r, NULL, pinfo, &st, &res, pinfo->pool);
        if (!ttc_rd_ok(&r) || !res.has_oer)
            continue;
        if (r.off == end || (r.off + 1 == end && tvb_get_uint8(tvb, r.off) == TTC_MSG_END_OF_RESPONSE))
            return p;
    }
    return -1;
}

/* A capture of the client's packets alone, without a handshake (a client
 * trace, or a capture filtered on the client's address): no response ends
 * a request, so a client packet that starts with a whole call (after its
 * piggybacks) while no message continues into it is the next request.
 * Never with a handshake or once the server was heard: there the server's
 * answer ends each request, and a request's later packets are its own. */
static gboolean
client_only_next_call(const ttc_session_t *ts, const sqlnet_session_t *sess, tvbuff_t *payload,
                      packet_info *pinfo)
{
    gint end;
    guint i;

    if (ts->server_seen || sess->accept_frame || sess->connect_frame || !ts->req || ts->req->response ||
        ts->req->first_frame == pinfo->num || ts->dir[SQLNET_TO_SERVER].pending_len > 0)
        return FALSE;
    if (!call_payload(payload, &end))
        return FALSE;
    if (ts->dialect.known && call_score(ts, payload, end, pinfo, ts->dialect_ptr) != FIT_NONE)
        return TRUE;
    if (ts->dialect.known && !ts->dialect.inferred)
        return FALSE;
    /* not inferred yet, or the inferred dialect may still be the wrong one */
    for (i = 0; i < G_N_ELEMENTS(infer_cand); i++)
        if ((!ts->dialect.known || i != ts->infer_chosen) && call_fits(ts, payload, end, pinfo, i) != FIT_NONE)
            return TRUE;
    return FALSE;
}

/* This packet was noted as more of the latest request (ttc_note_packet):
 * it starts the next one instead. */
static void
split_request(ttc_session_t *ts, packet_info *pinfo, guint32 tns_len, guint16 data_flags)
{
    ttc_request_t *old = ts->req, *req;

    old->tns_packets--;
    old->tns_bytes -= tns_len;
    old->ttc_bytes -= tns_data_bytes(tns_len);
    old->frame = ts->client_prev_frame;
    old->last_time = ts->client_prev_time;
    old->ended = TRUE;                 /* over: the next one starts here */
    /* An execute on a new cursor: no reply names its cursor, so the next
     * call on a cursor not seen before is taken to be on it (as after a
     * response cut before its end-of-call status). */
    if (ttc_req_executes(old) && !(old->call.has_cursor && old->call.cursor != 0))
        ts->unbound = old;
    ts->waiting = ts->waiting_last = NULL;   /* no answer to wait for */
    req = open_request(ts, pinfo, TTC_REQ_NONE);
    request_add_packet(req, pinfo, tns_len, data_flags);
}

void
ttc_dissect_payload(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree,
                    sqlnet_session_t *sess, sqlnet_dir_t dir, guint16 data_flags,
                    guint32 tns_len)
{
    ttc_session_t *ts = ttc_session_at(sess, pinfo);
    ttc_stream_t *s = &ts->dir[dir];
    ttc_pdu_rec_t *rec;
    gint len = tvb_reported_length(payload);
    /* Decoding never reads past the captured bytes: a packet the snaplen
     * cut short is decoded up to the cut and the round trip marked partial. */
    gint cap = (gint)tvb_captured_length(payload);
    gboolean cut = cap < len;
    gint end = cut ? cap : len;
    gboolean first = !PINFO_FD_VISITED(pinfo);
    proto_item *ti;
    proto_tree *tt;
    ttc_state_t st;
    stop_t stop = STOP_END;
    gint off;

    rec = (ttc_pdu_rec_t *)p_get_proto_data(wmem_file_scope(), pinfo, proto_ttc_layer, rec_key(payload));
    if (!rec) {
        if (!first)
            return;                    /* not seen on the first pass (e.g. capture gap) */
        if (dir == SQLNET_TO_SERVER && client_only_next_call(ts, sess, payload, pinfo))
            split_request(ts, pinfo, tns_len, data_flags);
        rec = wmem_new0(wmem_file_scope(), ttc_pdu_rec_t);
        rec->body_off = rec->stop_off = rec->resync_off = -1;
        rec->req = dir == SQLNET_TO_SERVER ? ts->req : NULL;
        rec->resp = dir == SQLNET_TO_CLIENT ? ts->resp : NULL;
        p_add_proto_data(wmem_file_scope(), pinfo, proto_ttc_layer, rec_key(payload), rec);
        rec->start = s->state;
        rec->decoded = !s->opaque;
        rec->starts_request = dir == SQLNET_TO_SERVER && ts->req && ts->req->tns_packets == 1 &&
                              ts->req->first_frame == pinfo->num;
    } else {
        first = FALSE;
    }

    ti = proto_tree_add_item(tree, hf_ttc, payload, 0, -1, ENC_NA);
    tt = proto_item_add_subtree(ti, ett_ttc);

    if (first && dir == SQLNET_TO_SERVER && !ts->dialect.known && s->pending_len == 0 && !s->opaque) {
        if (infer_dialect(ts, sess, payload, pinfo)) {
            rec->start.dialect = s->state.dialect = ts->dialect_ptr;
            ts->infer_verify = TRUE;
        }
    }
    if (first && dir == SQLNET_TO_SERVER && ts->dialect.inferred && ts->infer_verify &&
        s->pending_len == 0 && !s->opaque && ts->inferred_frame != pinfo->num) {
        guint8 was = ts->infer_chosen;
        narrow_inferred_dialect(ts, sess, payload, pinfo);
        rec->start.dialect = s->state.dialect = ts->dialect_ptr;
        if (ts->infer_chosen != was)
            rec->reinferred_from = ts->inferred_frame;
    }
    if (first && dir == SQLNET_TO_CLIENT && ts->infer_verify && s->pending_len == 0 && !s->opaque) {
        guint8 was = ts->infer_chosen;
        verify_inferred_dialect(ts, sess, payload, end, pinfo);
        rec->start.dialect = s->state.dialect = ts->dialect_ptr;
        if (ts->infer_chosen != was)
            rec->reinferred_from = ts->inferred_frame;
    }
    if (first) {
        if (s->opaque) {
            /* a call's bind values that fill more than one TNS packet: the
             * later packets are more of its call data, not undecoded */
            rec->stop = s->opaque_cut ? STOP_AFTER_CUT : s->opaque_call_data ? STOP_CALL_DATA : STOP_BAD;
            rec->stop_off = 0;
            if (cut)
                mark_partial(ts, dir, TTC_PARTIAL_CUT);
        } else if (s->pending_len > 0) {
            /* Finish the message begun in earlier packets. */
            guint32 prefix = s->pending_len;
            guint32 total = prefix + (guint32)end;
            tvbuff_t *jt;
            gint e;

            if (total > TTC_MAX_PENDING || s->pending_work + total > TTC_MAX_PENDING_WORK) {
                drop_pending(ts, s, dir, rec, total, FALSE);
            } else if (!pending_append(s, payload, 0, (guint32)end)) {
                drop_pending(ts, s, dir, rec, total, TRUE);
            } else {
                s->pending_work += total;
                jt = tvb_new_real_data(s->pending, total, total);
                st = s->state;
                e = decode_range(jt, 0, (gint)total, &st, NULL, pinfo, dir, ts, sess, rec, TRUE, &stop, TRUE);
                tvb_free(jt);
                if (stop == STOP_NEED_MORE && cut) {
                    /* the rest of the message was not captured */
                    pending_drop(s);
                    go_opaque(ts, s, dir, STOP_CUT);
                    rec->stop = STOP_CUT;
                    rec->stop_off = 0;
                } else if (stop == STOP_NEED_MORE) {
                    /* Still incomplete: this whole payload is a middle part. */
                    rec->stop = STOP_NEED_MORE;
                    rec->stop_off = 0;
                } else if (stop == STOP_BAD) {
                    pending_drop(s);
                    go_opaque(ts, s, dir, STOP_BAD);
                    rec->stop = STOP_BAD;
                    rec->stop_off = 0;
                } else {
                    rec->joined = (guint8 *)wmem_memdup(wmem_file_scope(), s->pending, (size_t)e);
                    rec->joined_len = (guint32)e;
                    rec->joined_prefix = prefix;
                    rec->body_off = e - (gint)prefix;
                    s->state = st;
                    pending_drop(s);
                    if (stop == STOP_CALL_DATA) {
                        go_opaque(ts, s, dir, STOP_CALL_DATA);
                        rec->stop = STOP_CALL_DATA;
                        rec->stop_off = rec->body_off;
                    }
                }
            }
        } else {
            rec->body_off = 0;
        }

        if (rec->body_off >= 0 && rec->stop_off < 0) {
            st = s->state;
            off = decode_range(payload, rec->body_off, end, &st, NULL, pinfo, dir, ts, sess, rec, TRUE, &stop, FALSE);
            s->state = st;
            if (cut && (stop == STOP_NEED_MORE || stop == STOP_END))
                stop = STOP_CUT;       /* what follows the cut is unknown */
            rec->stop = (guint8)stop;
            rec->stop_off = stop == STOP_END ? -1 : off;
            if (stop == STOP_NEED_MORE) {
                pending_drop(s);
                if (!pending_append(s, payload, off, (guint32)(len - off))) {
                    drop_pending(ts, s, dir, rec, (guint32)(len - off), TRUE);
                    rec->stop_off = off;
                }
            } else if (stop != STOP_END) {
                go_opaque(ts, s, dir, stop);
            }
        }
        /* Recovery: a response not decoded from here on may still end with
         * its end-of-call status; decoding resumes there. */
        if (dir == SQLNET_TO_CLIENT && rec->stop == STOP_BAD && rec->stop_off >= 0 && ts->resp) {
            gint at = find_final_oer(payload, rec->stop_off, end, &s->state, pinfo);
            if (at >= 0) {
                stop_t stop2;
                st = s->state;
                decode_range(payload, at, end, &st, NULL, pinfo, dir, ts, sess, rec, TRUE, &stop2, FALSE);
                if (stop2 == STOP_END) {
                    rec->resync_off = at;
                    s->state = st;
                    s->opaque = FALSE;      /* at a message boundary again */
                }
            }
        }
        state_keep(s);
        /* 23ai end of response: the flagged packet is the last of it. */
        if (dir == SQLNET_TO_CLIENT && (data_flags & TNS_DF_END_OF_RESPONSE) && ts->resp) {
            rec->completes = TRUE;
            close_response(ts, pinfo, pinfo->num, &pinfo->abs_ts, TRUE);
        }
    }

    /* Display (every pass): decode again from the record. */
    if (ts->inferred_frame == pinfo->num && dir == SQLNET_TO_SERVER && rec->start.dialect) {
        const ttc_dialect_t *d = rec->start.dialect;
        char ptr[24] = "";
        if (d->native)
            snprintf(ptr, sizeof(ptr), ", %u-byte pointers", d->ptr_width ? d->ptr_width : 1u);
        expert_add_info_format(pinfo, ti, &ei_inferred,
                               "No TTC negotiation in the capture: integer encoding and field version assumed "
                               "for this conversation from the structure of this call: %s integers%s, field "
                               "version %u",
                               d->native ? "native (OCI)" : "universal (thin)", ptr, d->fv);
        proto_item_append_text(ti, " [dialect inferred: %s integers%s, field version %u]",
                               d->native ? "native (OCI)" : "universal (thin)", ptr, d->fv);
    }
    if (rec->reinferred_from && rec->start.dialect) {
        const ttc_dialect_t *d = rec->start.dialect;
        char ptr[24] = "";
        if (d->native)
            snprintf(ptr, sizeof(ptr), ", %u-byte pointers", d->ptr_width ? d->ptr_width : 1u);
        expert_add_info_format(pinfo, ti, &ei_reinferred,
                               "The TTC dialect inferred at frame %u does not fit this %s: %s integers%s, "
                               "field version %u from here on", rec->reinferred_from,
                               dir == SQLNET_TO_SERVER ? "call" : "reply",
                               d->native ? "native (OCI)" : "universal (thin)", ptr, d->fv);
    }
    if (rec->cursor_dropped) {
        expert_add_info(pinfo, ti, &ei_cursor_cap);
        proto_item_append_text(ti, " [cursor %u not remembered: %u cursors kept]",
                               rec->cursor_dropped == G_MAXUINT32 ? 0 : rec->cursor_dropped, ts->ncursors);
    }
    if (rec->too_long && rec->too_much_total)
        expert_add_info_format(pinfo, ti, &ei_too_long,
                               "TTC message not decoded: it would take the bytes held for unfinished "
                               "messages of all connections above their limit");
    else if (rec->too_long) {
        expert_add_info_format(pinfo, ti, &ei_too_long,
                               "TTC message not decoded: too large or collected over too many packets");
        proto_item_append_text(ti, " [message of %u bytes so far not collected; limits %u bytes, %u bytes of "
                               "decoding work]", rec->too_long, TTC_MAX_PENDING, TTC_MAX_PENDING_WORK);
    }
    if (!tree)
        return;
    st = rec->start;
    if (rec->joined) {
        tvbuff_t *jt = tvb_new_child_real_data(payload, rec->joined, rec->joined_len, rec->joined_len);
        add_new_data_source(pinfo, jt, "Reassembled TTC message");
        proto_tree_add_item(tt, hf_continuation, payload, 0, MIN((gint)(rec->joined_len - rec->joined_prefix), end), ENC_NA);
        decode_range(jt, 0, (gint)rec->joined_len, &st, tt, pinfo, dir, ts, sess, rec, FALSE, &stop, TRUE);
    }
    if (rec->body_off >= 0) {
        gint stop_at = rec->stop_off >= 0 ? rec->stop_off : end;
        if (rec->body_off < stop_at)
            decode_range(payload, rec->body_off, stop_at, &st, tt, pinfo, dir, ts, sess, rec, FALSE, &stop, FALSE);
    }
    if (rec->stop_off >= 0 && !(rec->joined == NULL && rec->body_off < 0 && rec->stop == STOP_NEED_MORE))
        add_stop_items(tt, payload, pinfo, rec->stop_off, rec->resync_off, (stop_t)rec->stop);
    if (rec->resync_off >= 0) {
        st = rec->start;
        decode_range(payload, rec->resync_off, end, &st, tt, pinfo, dir, ts, sess, rec, FALSE, &stop, FALSE);
    }
    else if (rec->stop == STOP_NEED_MORE)
        proto_tree_add_item(tt, hf_continuation, payload, 0, end, ENC_NA);
}

/* Record lookup for metrics.c (the request or response of this PDU). */
gboolean
ttc_pdu_lookup(packet_info *pinfo, tvbuff_t *payload, ttc_request_t **req,
               ttc_response_t **resp, gboolean *completes, gboolean *carries_call)
{
    ttc_pdu_rec_t *rec = (ttc_pdu_rec_t *)p_get_proto_data(wmem_file_scope(), pinfo, proto_ttc_layer,
                                                           rec_key(payload));
    if (!rec)
        return FALSE;
    *req = rec->req;
    *resp = rec->resp;
    *completes = rec->completes;
    *carries_call = rec->carries_call;
    return TRUE;
}

guint32
ttc_round_trip_number(ttc_session_t *ts, ttc_response_t *resp)
{
    if (resp->number == 0 && resp->req)
        ttc_response_set_number(resp, ++ts->round_trips);
    return resp->number;
}

gboolean
ttc_pdu_starts_request(packet_info *pinfo, tvbuff_t *payload)
{
    ttc_pdu_rec_t *rec = (ttc_pdu_rec_t *)p_get_proto_data(wmem_file_scope(), pinfo, proto_ttc_layer,
                                                           rec_key(payload));
    return rec && rec->starts_request;
}

int hf_ttc_msg = -1;
int hf_ttc_cursor = -1;
int hf_ttc_token = -1;
int hf_ttc_sql = -1;
int hf_ttc_sql_id = -1;

const char *
ttc_sql_id(ttc_session_t *ts, const char *sql)
{
    char *id;

    if (!sql)
        return NULL;
    if (!ts->sql_ids)
        ts->sql_ids = wmem_map_new(wmem_file_scope(), g_str_hash, g_str_equal);
    id = (char *)wmem_map_lookup(ts->sql_ids, sql);
    if (!id) {
        /* the texts a session keeps live in file scope: the key needs no copy */
        id = (char *)wmem_alloc(wmem_file_scope(), SQLNET_SQL_ID_LEN + 1);
        sqlnet_sql_id(sql, strlen(sql), id);
        wmem_map_insert(ts->sql_ids, sql, id);
    }
    return id;
}

void
ttc_add_sql(proto_tree *tree, tvbuff_t *tvb, gint start, gint len, const char *sql)
{
    char id[SQLNET_SQL_ID_LEN + 1];

    if (!tree || !sql)
        return;
    proto_tree_add_string(tree, hf_ttc_sql, tvb, start, len, sql);
    if (proto_field_is_referenced(tree, hf_ttc_sql_id)) {
        sqlnet_sql_id(sql, strlen(sql), id);
        proto_item_set_generated(proto_tree_add_string(tree, hf_ttc_sql_id, tvb, start, len, id));
    }
}

void
ttc_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_ttc_msg, { "TTC message", "sqlnet.ttc.msg", FT_UINT8, BASE_DEC, VALS(ttc_msg_type_vals), 0x0, NULL, HFILL } },
        { &hf_ttc_cursor, { "Cursor", "sqlnet.cursor", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Cursor id of the call or of its end-of-call status", HFILL } },
        { &hf_ttc_token, { "Token", "sqlnet.ttc.token", FT_UINT64, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_ttc_sql, { "SQL", "sqlnet.sql", FT_STRING, BASE_NONE, NULL, 0x0,
            "SQL text of the statement: on the call that carries it, and generated on the later calls and "
            "the responses of the same cursor", HFILL } },
        { &hf_ttc_sql_id, { "SQL_ID", "sqlnet.sql_id", FT_STRING, BASE_NONE, NULL, 0x0,
            "Oracle's SQL_ID of the SQL text (as V$SQL.SQL_ID shows it): next to every sqlnet.sql", HFILL } },
        { &hf_ttc, { "TTC", "sqlnet.ttc", FT_NONE, BASE_NONE, NULL, 0x0,
            "Two-Task Common messages carried in this DATA packet", HFILL } },
        { &hf_continuation, { "Continuation of a TTC message", "sqlnet.ttc.continuation", FT_BYTES, BASE_NONE, NULL, 0x0,
            "Bytes of a message that began in an earlier TNS packet", HFILL } },
        { &hf_continues, { "TTC message continues in the next packet", "sqlnet.ttc.continues", FT_BYTES, BASE_NONE, NULL, 0x0,
            NULL, HFILL } },
        { &hf_call_data, { "Call data (binds/defines)", "sqlnet.ttc.call_data", FT_BYTES, BASE_NONE, NULL, 0x0,
            "Bind or define data of the call, not decoded", HFILL } },
        { &hf_undecoded, { "Undecoded TTC data", "sqlnet.ttc.undecoded", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_cut, { "TTC data cut by the capture", "sqlnet.ttc.cut", FT_BYTES, BASE_NONE, NULL, 0x0,
            "Bytes of a TNS packet the capture's snaplen cut short (or of the packets after it in the same round trip), "
            "not decoded", HFILL } },
    };
    static gint *ett[] = { &ett_ttc };
    static ei_register_info ei[] = {
        { &ei_undecoded, { "sqlnet.ttc.not_decoded", PI_UNDECODED, PI_NOTE,
            "TTC message not decoded; decoding resumes at the next request or response", EXPFILL } },
        { &ei_too_long, { "sqlnet.ttc.too_long", PI_PROTOCOL, PI_WARN,
            "TTC message too long to collect", EXPFILL } },
        { &ei_cursor_cap, { "sqlnet.limit.cursors", PI_PROTOCOL, PI_WARN,
            "Cursor cap of this connection reached (preference sqlnet.max_cursors): cursor not remembered, its statement text is not shown on later calls", EXPFILL } },
        { &ei_capture_cut, { "sqlnet.ttc.capture_cut", PI_PROTOCOL, PI_WARN,
            "TNS packet cut short by the capture (snaplen): the round trip is partial", EXPFILL } },
        { &ei_inferred, { "sqlnet.ttc.dialect_inferred", PI_PROTOCOL, PI_NOTE,
            "No TTC negotiation in the capture: integer encoding and field version assumed for this conversation from the structure of this call", EXPFILL } },
        { &ei_reinferred, { "sqlnet.ttc.dialect_changed", PI_PROTOCOL, PI_NOTE,
            "No TTC negotiation in the capture: the inferred integer encoding or field version does not fit this call or reply; another is taken from here on", EXPFILL } },
    };
    expert_module_t *expert;

    proto_ttc_layer = proto;
    register_init_routine(ttc_init);
    register_cleanup_routine(ttc_cleanup);
    proto_register_field_array(proto, hf, array_length(hf));
    proto_register_subtree_array(ett, array_length(ett));
    expert = expert_register_protocol(proto);
    expert_register_field_array(expert, ei, array_length(ei));
}
