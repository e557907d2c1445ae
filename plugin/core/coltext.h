/* coltext.h - Info column text built without printf.
 *
 * The TNS packet line and the request/response summaries are appended for
 * every packet of a capture; col_append_fstr() costs a vsnprintf each time
 * (the largest share of sqlnet's own cost in bench/).  These helpers build
 * the same text into a stack buffer for one col_append_str().
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_COLTEXT_H
#define SQLNET_COLTEXT_H

#include <glib.h>
#include <epan/packet_info.h>

typedef struct {
    char buf[192];
    gsize len;
} sqlnet_coltext_t;

static inline void
coltext_init(sqlnet_coltext_t *t)
{
    t->len = 0;
    t->buf[0] = '\0';
}

/* Append a string; text beyond the buffer is dropped (never overflows). */
static inline void
coltext_str(sqlnet_coltext_t *t, const char *s)
{
    while (*s && t->len < sizeof(t->buf) - 1)
        t->buf[t->len++] = *s++;
    t->buf[t->len] = '\0';
}

/* Append an unsigned integer in decimal, as printf("%u") / G_GUINT64_FORMAT. */
static inline void
coltext_uint(sqlnet_coltext_t *t, guint64 v)
{
    char digits[20];
    guint n = 0;

    do {
        digits[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v && n < sizeof(digits));
    while (n > 0 && t->len < sizeof(t->buf) - 1)
        t->buf[t->len++] = digits[--n];
    t->buf[t->len] = '\0';
}

/* Append tenths as "<int>.<digit>", as printf("%.1f") of tenths / 10. */
static inline void
coltext_tenths(sqlnet_coltext_t *t, guint64 tenths)
{
    coltext_uint(t, tenths / 10u);
    coltext_str(t, ".");
    coltext_uint(t, tenths % 10u);
}

/* Info-column appends that stop once the column is full.
 *
 * col_append_str() re-scans the whole column (g_strlcat) on every call, and
 * goes on being called after the column is full: a frame of thousands of
 * tiny TNS packets paid 4 KB per packet for text that is dropped.  These
 * wrappers track the column's length per frame (packet scope), scan only the
 * text each append adds, and skip appends once nothing more fits.  The text
 * shown is the same as with col_append_str(). */

/* sqlnet takes the Protocol and Info columns of this frame: TRUE the first
 * time per frame (the caller then sets them), FALSE afterwards and in a
 * pass without columns (pinfo->cinfo NULL: nothing to set). */
gboolean sqlnet_col_take(packet_info *pinfo);
/* The Info column may have been changed by another dissector (tls.c calls
 * Wireshark's TLS dissector): measure it again at the next append. */
void sqlnet_col_forget(packet_info *pinfo);
/* Between sqlnet_col_hold() and sqlnet_col_release() (nested: counted),
 * the appends below wait in a packet-scope buffer and reach the column in
 * one col_append_str() at the release (or before a take or a forget):
 * col_append_str() re-scans the column each time (g_strlcat).  The caller
 * releases also when an exception leaves (TRY/FINALLY), before anyone
 * else writes the column (show_exception()'s "[Malformed Packet]"). */
void sqlnet_col_hold(packet_info *pinfo);
void sqlnet_col_release(packet_info *pinfo);
/* col_append_str(pinfo->cinfo, COL_INFO, s) */
void sqlnet_col_append(packet_info *pinfo, const char *s);
/* col_append_sep_str(pinfo->cinfo, COL_INFO, sep, s) */
void sqlnet_col_append_sep(packet_info *pinfo, const char *sep, const char *s);

#endif /* SQLNET_COLTEXT_H */
