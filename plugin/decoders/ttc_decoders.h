/* ttc_decoders.h - the message decoders' interface to the layers around
 * them: plugin.c gives ttc_decoder_ops to the stream (ttc_set_decoders) and
 * registers the decoders' fields (ttc_decoders_register).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_TTC_DECODERS_H
#define SQLNET_TTC_DECODERS_H

#include "ttc.h"

/* ttc_dispatch.c */
extern const ttc_decoder_ops_t ttc_decoder_ops;
/* The fields of every message family the tables name. */
void ttc_decoders_register(int proto);
/* One client (server) message: the entry points in ttc_decoder_ops. */
void ttc_decode_client(ttc_rd_t *r, proto_tree *tree, packet_info *pinfo,
                       ttc_state_t *st, ttc_msg_result_t *res, wmem_allocator_t *scope);
void ttc_decode_server(ttc_rd_t *r, proto_tree *tree, packet_info *pinfo,
                       ttc_state_t *st, ttc_msg_result_t *res, wmem_allocator_t *scope);

#endif /* SQLNET_TTC_DECODERS_H */
