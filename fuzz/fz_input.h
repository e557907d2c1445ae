/* fz_input.h - the input format of fuzz/sqlnet_fuzzer: one TCP conversation
 * as direction-tagged chunks (see the header of sqlnet_fuzzer.c).  Shared by
 * the harness (which turns chunks into frames) and the structure-aware
 * mutator (sqlnet_mutator.c); fuzz/to_pcap.py reads the same format.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_FZ_INPUT_H
#define SQLNET_FZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

#define FZ_DIR_SERVER   0x01   /* server -> client (else client -> server) */
#define FZ_TRUNCATED    0x02   /* snaplen-cut frame(s): half the payload captured */
#define FZ_GAP          0x04   /* 1000 bytes of this direction were lost before it */
#define FZ_RETRANS      0x08   /* re-sends the last bytes of this direction */
#define FZ_REPEAT       0x10   /* count(2) follows the length: payload sent count times */
#define FZ_LONG         0x20   /* the length is 4 bytes (else 2) */
#define FZ_FLAGS_KNOWN  0x3f

/* The expanded payloads of one input (all chunks, repeats included) are cut
 * at FZ_MAX_STREAM bytes; a chunk longer than FZ_MAX_SEGMENT bytes is sent as
 * several TCP segments of at most FZ_MAX_SEGMENT bytes (an IPv4 packet holds
 * 65535 bytes with its headers). */
#define FZ_MAX_STREAM   (4u * 1024u * 1024u)
#define FZ_MAX_SEGMENT  (65535u - 40u)

typedef struct {
    uint8_t  flags;
    uint32_t count;            /* copies of the payload (>= 1) */
    const uint8_t *payload;
    uint32_t len;              /* payload bytes (cut at the end of the input) */
    uint32_t declared;         /* length field as written */
} fz_chunk_t;

/* Parse the chunk at *off; FALSE when no complete chunk header is left. */
static inline int
fz_next_chunk(const uint8_t *buf, size_t len, size_t *off, fz_chunk_t *c)
{
    size_t o = *off;
    size_t hdr = 3;
    uint32_t n;

    if (o >= len)
        return 0;
    c->flags = buf[o];
    if (c->flags & FZ_LONG)
        hdr += 2;
    if (c->flags & FZ_REPEAT)
        hdr += 2;
    if (len - o < hdr)
        return 0;
    o++;
    if (c->flags & FZ_LONG) {
        n = ((uint32_t)buf[o] << 24) | ((uint32_t)buf[o + 1] << 16) | ((uint32_t)buf[o + 2] << 8) | buf[o + 3];
        o += 4;
    } else {
        n = ((uint32_t)buf[o] << 8) | buf[o + 1];
        o += 2;
    }
    c->count = 1;
    if (c->flags & FZ_REPEAT) {
        c->count = ((uint32_t)buf[o] << 8) | buf[o + 1];
        if (c->count == 0)
            c->count = 1;
        o += 2;
    }
    c->declared = n;
    if (n > len - o)
        n = (uint32_t)(len - o);
    c->payload = buf + o;
    c->len = n;
    *off = o + n;
    return 1;
}

#endif
