/* ttc_infer.c - the TTC dialect of a conversation whose
 * handshake is not in the capture: inferred from the client's first whole
 * call, narrowed by later calls, verified by the server's replies; and, with
 * the client's packets alone, where the next request starts.
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
#include "ttc_internal.h"

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

enum { FIT_NONE = 0, FIT_SEARCHED = 256, FIT_EXACT = 512 };

/* How well the client's message sequence (piggybacks, the call, up to its
 * bind values or the end of the payload) decodes under dialect d: FIT_NONE
 * when a message does not decode, no function call is found or a call's
 * values are implausible; FIT_SEARCHED when an OCI OALL8's text had to be
 * searched for (the dialect's header layout does not put it there);
 * FIT_EXACT otherwise; less one for each piggyback whose body did not fit
 * and was skipped (an OCI 23 close-cursors list, 64-bit pointer and ub4s,
 * fits OCI 23 and not the thin layout, though both find the OCOMMIT after
 * it: dbbat sqlplus_cursor_reexec frame 22).  Trial decodes only. */
static guint
call_score(const ttc_session_t *ts, tvbuff_t *payload, gint end, packet_info *pinfo, const ttc_dialect_t *d)
{
    ttc_state_t st = ts->dir[SQLNET_TO_SERVER].state;
    gboolean call = FALSE, searched = FALSE;
    gint off = 0;
    guint n, skipped = 0;

    st.dialect = d;
    for (n = 0; n < 64 && off < end; n++) {
        ttc_rd_t r;
        ttc_msg_result_t res;
        memset(&res, 0, sizeof(res));
        ttc_rd_init(&r, payload, off, end, d);
        r.strict = TRUE;
        ttc_decoders->decode_client(&r, NULL, pinfo, &st, &res, pinfo->pool);
        if (!ttc_rd_ok(&r) || r.off <= off)
            return FIT_NONE;
        if (res.is_call && res.call.kind == TTC_REQ_FUNCTION) {
            if (!try_val_to_str(res.call.func, ttc_function_vals) || !plausible_call(&res.call))
                return FIT_NONE;
            call = TRUE;
        }
        searched |= res.sql_searched;
        skipped += res.pb_skipped;
        off = r.off;
        if (res.stop)
            break;
    }
    if (!call)
        return FIT_NONE;
    return (searched ? FIT_SEARCHED : FIT_EXACT) - MIN(skipped, 255);
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
gboolean
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
void
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
void
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

/* No handshake and no client call before it (a capture of the server's
 * packets alone, or one that starts with a reply): the candidates under
 * which the whole reply decodes to its end, the first of them chosen; the
 * later replies and calls narrow them as after a call.  Only a reply that
 * starts with a message a response starts with (end of call, row header,
 * describe, return parameters, status ...) and holds more than its type
 * byte is evidence (an end-of-response alone fits every candidate).  An
 * OCI 23 ORA-01403 summary (64-bit fixed-width OER) decodes under OCI 23
 * and under no thin candidate (server-only cut of dbbat
 * sqlplus_cursor_reexec).  Trial decodes only. */
gboolean
infer_dialect_from_reply(ttc_session_t *ts, const sqlnet_session_t *sess, tvbuff_t *payload, gint end,
                         packet_info *pinfo)
{
    const ttc_state_t *now = &ts->dir[SQLNET_TO_CLIENT].state;
    guint32 fits = 0;
    guint i, chosen = G_N_ELEMENTS(infer_cand);
    guint8 first;

    if (end < 8 || end < (gint)tvb_reported_length(payload))
        return FALSE;
    first = tvb_get_uint8(payload, 0);
    switch (first) {
    case TTC_MSG_ERROR: case TTC_MSG_ROW_HEADER: case TTC_MSG_PARAMETER: case TTC_MSG_STATUS:
    case TTC_MSG_DESCRIBE_INFO: case TTC_MSG_SERVER_PIGGYBACK: case TTC_MSG_WARNING:
        break;
    default:
        return FALSE;
    }
    for (i = 0; i < G_N_ELEMENTS(infer_cand); i++) {
        ttc_dialect_t d;
        ttc_state_t trial = *now;
        stop_t stop;
        candidate_dialect(&d, i);
        d.known = d.inferred = TRUE;
        trial.dialect = &d;
        decode_range(payload, 0, end, &trial, NULL, pinfo, SQLNET_TO_CLIENT, ts, sess, NULL, FALSE, &stop, FALSE);
        if (stop != STOP_END)
            continue;
        fits |= 1u << i;
        if (chosen == G_N_ELEMENTS(infer_cand))
            chosen = i;
    }
    if (chosen == G_N_ELEMENTS(infer_cand))
        return FALSE;
    {
        ttc_dialect_t d;
        candidate_dialect(&d, chosen);
        d.known = d.inferred = TRUE;
        set_dialect(ts, sess, &d);
    }
    ts->infer_fits = fits;
    ts->infer_chosen = (guint8)chosen;
    ts->inferred_frame = pinfo->num;
    return TRUE;
}

/* A capture of the client's packets alone, without a handshake (a client
 * trace, or a capture filtered on the client's address): no response ends
 * a request, so a client packet that starts with a whole call (after its
 * piggybacks) while no message continues into it is the next request.
 * Never with a handshake or once the server was heard: there the server's
 * answer ends each request, and a request's later packets are its own. */
gboolean
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
