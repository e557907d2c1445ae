/* pkt.h - what sqlnet keeps per frame in packet scope, in one proto-data
 * entry (a lookup of the frame's list each, one entry made per frame): the
 * frame's session (session.c) and its Info column as sqlnet left it
 * (coltext.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_PKT_H
#define SQLNET_PKT_H

#include <glib.h>
#include <epan/packet_info.h>

struct sqlnet_session;

/* coltext.c's: the column's text pointer and length after sqlnet's last
 * append, whether nothing more fits, whether sqlnet took the column; the
 * appends held (sqlnet_col_hold()). */
typedef struct {
    const char *text;
    gsize len;                 /* G_MAXSIZE: unknown */
    gboolean full;
    gboolean taken;
    guint hold;                /* depth */
    char *pend;
    gsize pend_len, pend_cap;
} sqlnet_colstate_t;

typedef struct {
    struct sqlnet_session *sess;       /* session.c's, when has_sess */
    guint32 srcport, destport;         /* whose (a frame with two TCP layers) */
    gboolean has_sess;
    sqlnet_colstate_t col;
} sqlnet_pkt_t;

/* The frame's, made at the first call. */
sqlnet_pkt_t *sqlnet_pkt(packet_info *pinfo);
/* The frame's, NULL when none was made. */
sqlnet_pkt_t *sqlnet_pkt_find(packet_info *pinfo);

#endif /* SQLNET_PKT_H */
