/* ttc_pending.c - a message cut by TNS packet boundaries: the bytes
 * of it collected so far (per direction), and the cap on what all
 * conversations of a capture file hold together.
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

/* Bytes held in pending messages by all conversations of the capture file.
 * The one piece of state shared between conversations, because its cap must
 * bound what a capture of many conversations makes the plugin hold: it lives
 * in file scope, made anew by the init routine for every file. */
typedef struct {
    guint64 held;
} ttc_pending_budget_t;

static ttc_pending_budget_t *pending_budget;

void
ttc_pending_init(void)
{
    pending_budget = wmem_new0(wmem_file_scope(), ttc_pending_budget_t);
}

void
ttc_pending_cleanup(void)
{
    pending_budget = NULL;             /* freed with the file scope */
}

/* Append len captured bytes of tvb at off to the stream's pending message;
 * FALSE when all conversations together would hold more than the cap. */
gboolean
pending_append(ttc_stream_t *s, tvbuff_t *tvb, gint off, guint32 len)
{
    guint32 need = s->pending_len + len;
    if (need > s->pending_cap) {
        guint32 cap = MAX(need, MIN(MAX(s->pending_cap * 2u, 256u), TTC_MAX_PENDING));
        if (pending_budget && pending_budget->held - s->pending_cap + cap > TTC_MAX_PENDING_TOTAL)
            return FALSE;
        s->pending = (guint8 *)g_realloc(s->pending, cap);
        ttc_pending_free_at_end(s);
        if (pending_budget)
            pending_budget->held = pending_budget->held - s->pending_cap + cap;
        s->pending_cap = cap;
    }
    tvb_memcpy(tvb, s->pending + s->pending_len, off, len);
    s->pending_len = need;
    return TRUE;
}

/* The pending message is done with; a large buffer is given back. */
void
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
