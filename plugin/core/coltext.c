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

#define LEN_UNKNOWN G_MAXSIZE

/* What this frame's Info column held after sqlnet's last append (packet
 * scope): its text pointer and length, and whether nothing more fits. */
typedef struct {
    const char *text;
    gsize len;
    gboolean full;
    gboolean taken;
} colstate_t;

static colstate_t *
colstate(packet_info *pinfo)
{
    colstate_t *c = (colstate_t *)p_get_proto_data(pinfo->pool, pinfo, sqlnet_proto(), SQLNET_KEY_COLUMNS);

    if (!c) {
        c = wmem_new0(pinfo->pool, colstate_t);
        c->len = LEN_UNKNOWN;
        p_add_proto_data(pinfo->pool, pinfo, sqlnet_proto(), SQLNET_KEY_COLUMNS, c);
    }
    return c;
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
append(packet_info *pinfo, const char *sep, const char *s)
{
    colstate_t *c = NULL;
    const char *t;
    gsize before = 0;

    if (!pinfo->cinfo)
        return;
    t = col_get_text(pinfo->cinfo, COL_INFO);
    if (t) {
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

void
sqlnet_col_append(packet_info *pinfo, const char *s)
{
    append(pinfo, NULL, s);
}

void
sqlnet_col_append_sep(packet_info *pinfo, const char *sep, const char *s)
{
    append(pinfo, sep, s);
}
