/* ttc_bindmeta.h - bind and define metadata of an execute (ttc_bindmeta.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_TTC_BINDMETA_H
#define SQLNET_TTC_BINDMETA_H

#include "ttc_msg.h"

/* Entries beyond this are not read (a count off the wire). */
#define TTC_MAX_BIND_ENTRIES 4096

/* The n bind (defines: define) metadata entries at `from`, in the layout of
 * the session's encoding; shown under tree.  Returns them with the reader
 * past them, or NULL with the reader unchanged; then *unfit (may be NULL) is
 * set when they do not fit the layout (not when they only continue in the
 * next TNS packet). */
const ttc_describe_t *ttc_bind_metadata(ttc_rd_t *from, proto_tree *tree, guint32 n, gboolean defines,
                                        wmem_allocator_t *scope, gboolean *unfit);
/* OCI 9.0's fixed 33-byte entries (OALL7, and OALL8 at field version 1);
 * NULL when they do not fit, need_more when the packet ends first. */
const ttc_describe_t *ttc_oall7_metadata(ttc_rd_t *from, proto_tree *tree, guint32 n, gboolean defines,
                                         wmem_allocator_t *scope);
/* Whether what follows a call's parts (or its entries) is what may: nothing,
 * a row of bind values, or the request's next message. */
gboolean ttc_call_ends_well(const ttc_rd_t *r);
void ttc_bindmeta_register(int proto);

#endif
