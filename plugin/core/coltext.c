/* coltext.c - Info-column appends that stop once the column is full (see
 * coltext.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>
#include <epan/packet.h>
#include <epan/proto_data.h>
#include <epan/column-utils.h>

#include "sqlnet.h"
#include "coltext.h"
#include "pkt.h"

#define LEN_UNKNOWN G_MAXSIZE

typedef sqlnet_colstate_t colstate_t;     /* (pkt.h) */

#define PEND_FIRST 256u

static void flush(packet_info *pinfo, colstate_t *c);

static colstate_t *
colstate(packet_info *pinfo)
{
    return &sqlnet_pkt(pinfo)->col;
}

gboolean
sqlnet_col_take(packet_info *pinfo)
{
    colstate_t *c;

    /* No columns in this pass (tshark -q, a tap's pass): nothing to set,
     * and no state to look up (a frame's proto-data lookup each time). */
    if (!pinfo->cinfo)
        return FALSE;
    c = colstate(pinfo);
    if (c->taken)
        return FALSE;
    flush(pinfo, c);                   /* what was held goes where it would have, then is cleared */
    c->taken = TRUE;
    c->len = LEN_UNKNOWN;
    c->full = FALSE;
    return TRUE;
}

void
sqlnet_col_forget(packet_info *pinfo)
{
    colstate_t *c;

    if (!pinfo->cinfo)
        return;
    c = colstate(pinfo);
    flush(pinfo, c);                   /* before what another dissector writes */
    c->len = LEN_UNKNOWN;
    c->full = FALSE;
}

/* The column's length now: only the bytes after the last known end are
 * scanned when the text is where it was and still ends there or later. */
static gsize
measure(const colstate_t *c, const char *t)
{
    if (t != c->text || c->len == LEN_UNKNOWN)
        return strlen(t);
    if (c->len > 0 && t[c->len - 1] == '\0')
        return strlen(t);              /* shorter than it was: rewritten */
    return c->len + strlen(t + c->len);
}

/* Before an append: FALSE when the column is known to be full. */
static gboolean
room(colstate_t *c, const char *t)
{
    return !(c->full && t == c->text && c->len != LEN_UNKNOWN && t[c->len] == '\0' &&
             (c->len == 0 || t[c->len - 1] != '\0'));
}

/* After an append of `s` to a column of `before` bytes. */
static void
note(colstate_t *c, const char *t, gsize before, const char *s)
{
    gsize after = measure(c, t);

    c->text = t;
    c->len = after;
    /* Full when nothing at all was added of a text that starts with an
     * ASCII byte (no room for even one byte), or the buffer is full. */
    c->full = after >= COL_MAX_INFO_LEN - 1 ||
              (after == before && s[0] != '\0' && !((guchar)s[0] & 0x80));
}

/* One append, with a separator (col_append_sep_str: the separator only
 * when the column is not empty) or without one (sep NULL: col_append_str). */
static void
append(packet_info *pinfo, colstate_t *c, const char *sep, const char *s)
{
    const char *t;
    gsize before = 0;

    if (!pinfo->cinfo)
        return;
    t = col_get_text(pinfo->cinfo, COL_INFO);
    if (t) {
        if (!c)
            c = colstate(pinfo);
        if (!room(c, t))
            return;
        before = measure(c, t);
        c->text = t;
        c->len = before;
    }
    if (sep)
        col_append_sep_str(pinfo->cinfo, COL_INFO, sep, s);
    else
        col_append_str(pinfo->cinfo, COL_INFO, s);
    if (t)
        note(c, col_get_text(pinfo->cinfo, COL_INFO), before, sep && before ? sep : s);
}

/* The held text to the column: one append.  An empty column (the frame's
 * first TNS packet: claim_columns() cleared it) takes the text itself:
 * col_set_str() keeps the pointer where col_append_str() would copy it byte
 * by byte (g_strlcat), and an empty column has no fence to write after.  The
 * buffer lives in packet scope, as long as the column's text is read; it is
 * the column's from then on, so the next hold starts a buffer of its own
 * (an append to the column copies the text into the column's buffer
 * first). */
static void
flush(packet_info *pinfo, colstate_t *c)
{
    const char *t;
    gsize n = c->pend_len;

    if (!n)
        return;
    c->pend[n] = '\0';
    c->pend_len = 0;
    t = col_get_text(pinfo->cinfo, COL_INFO);
    if (t && t[0] == '\0') {
        col_set_str(pinfo->cinfo, COL_INFO, c->pend);
        c->text = col_get_text(pinfo->cinfo, COL_INFO);
        if (c->text == c->pend) {
            c->len = n;
            c->full = n >= COL_MAX_INFO_LEN - 1;
        } else {
            c->len = LEN_UNKNOWN;      /* (not as expected: measured at the next append) */
            c->full = FALSE;
        }
        c->pend = NULL;
        c->pend_cap = 0;
        return;
    }
    append(pinfo, c, NULL, c->pend);
}

/* s onto the held text; what goes past a full column is dropped (the
 * column's own append cuts there too). */
static void
pend(packet_info *pinfo, colstate_t *c, const char *s)
{
    gsize n = strlen(s);

    if (c->pend_len + n >= COL_MAX_INFO_LEN) {
        /* more than the column takes: cut, at a character's start */
        n = COL_MAX_INFO_LEN - 1 - c->pend_len;
        while (n > 0 && ((guchar)s[n] & 0xC0) == 0x80)
            n--;
    }
    if (c->pend_len + n + 1 > c->pend_cap) {
        gsize cap = c->pend_cap ? c->pend_cap : PEND_FIRST;
        while (cap < c->pend_len + n + 1)
            cap *= 2;
        c->pend = (char *)wmem_realloc(pinfo->pool, c->pend, MIN(cap, COL_MAX_INFO_LEN));
        c->pend_cap = MIN(cap, COL_MAX_INFO_LEN);
    }
    memcpy(c->pend + c->pend_len, s, n);
    c->pend_len += n;
}

void
sqlnet_col_hold(packet_info *pinfo)
{
    colstate_t *c;

    if (!pinfo->cinfo)
        return;
    c = colstate(pinfo);
    flush(pinfo, c);                   /* (a hold inside a hold: what came before first) */
    c->hold++;
}

void
sqlnet_col_release(packet_info *pinfo)
{
    colstate_t *c;

    if (!pinfo->cinfo)
        return;
    c = colstate(pinfo);
    flush(pinfo, c);
    if (c->hold)
        c->hold--;
}

void
sqlnet_col_append(packet_info *pinfo, const char *s)
{
    colstate_t *c;

    if (!pinfo->cinfo)
        return;
    c = colstate(pinfo);
    if (!c->hold) {
        append(pinfo, c, NULL, s);
        return;
    }
    pend(pinfo, c, s);
}

void
sqlnet_col_append_sep(packet_info *pinfo, const char *sep, const char *s)
{
    colstate_t *c;
    const char *t;

    if (!pinfo->cinfo)
        return;
    c = colstate(pinfo);
    if (!c->hold) {
        append(pinfo, c, sep, s);
        return;
    }
    /* the separator when the column will not be empty before s, as
     * col_append_sep_str() decides */
    if (c->pend_len || ((t = col_get_text(pinfo->cinfo, COL_INFO)) != NULL && t[0] != '\0'))
        pend(pinfo, c, sep);
    pend(pinfo, c, s);
}
