/* mutator_check.c - drive the sqlnet custom mutator without libFuzzer.
 *
 *   mutator_check ITERATIONS MAX_SIZE SEED_FILE...
 *
 * Mutates a small pool of inputs (the seeds, then outputs that reach further)
 * ITERATIONS times with LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver
 * (LLVMFuzzerMutate is a simple byte mutator here) and checks every output:
 * at most MAX_SIZE bytes, and the same output again for the same input and
 * seed (run under ASan/UBSan, it checks the mutator's memory use too).  Prints what the outputs reached: the deepest
 * run of fast-auth headers (22 xx xx xx) at a message start in the client's
 * byte stream, and the longest client TNS packet (declared length, with its
 * bytes present), repeats expanded as the harness expands them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fz_input.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
                                 uint8_t *out, size_t max_out_size, unsigned int seed);

#define POOL 64

static guint64 stub_state;

static guint32
stub_rnd(void)
{
    stub_state = stub_state * G_GUINT64_CONSTANT(6364136223846793005) + 1442695040888963407u;
    return (guint32)(stub_state >> 33);
}

/* libFuzzer's byte mutator, roughly: change, insert or erase a few bytes. */
size_t
LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size)
{
    guint n = 1 + stub_rnd() % 4, i;

    for (i = 0; i < n; i++) {
        switch (stub_rnd() % 3) {
        case 0:
            if (size)
                data[stub_rnd() % size] = (uint8_t)stub_rnd();
            break;
        case 1:
            if (size < max_size) {
                size_t at = stub_rnd() % (size + 1);
                memmove(data + at + 1, data + at, size - at);
                data[at] = (uint8_t)stub_rnd();
                size++;
            }
            break;
        default:
            if (size > 1) {
                size_t at = stub_rnd() % size;
                memmove(data + at, data + at + 1, size - at - 1);
                size--;
            }
            break;
        }
    }
    return size;
}

typedef struct {
    guint32 nest;              /* deepest run of 22 xx xx xx at a client message start */
    guint32 packet;            /* longest client TNS packet, present in full */
} reach_t;

/* The client's byte stream as the harness sends it (repeats expanded, within
 * FZ_MAX_STREAM; retransmissions left out). */
static GByteArray *
client_stream(const guint8 *buf, size_t len)
{
    GByteArray *s = g_byte_array_new();
    size_t off = 1, total = 0;
    fz_chunk_t c;

    while (off < len && fz_next_chunk(buf, len, &off, &c)) {
        guint32 k;
        for (k = 0; k < c.count && total < FZ_MAX_STREAM; k++) {
            guint32 n = (guint32)MIN(c.len, FZ_MAX_STREAM - total);
            total += n;
            if (!(c.flags & (FZ_DIR_SERVER | FZ_RETRANS)))
                g_byte_array_append(s, c.payload, n);
        }
    }
    return s;
}

static reach_t
measure(const GByteArray *s)
{
    reach_t r = { 0, 0 };
    guint64 off = 0;

    /* TNS packets from their declared lengths (32-bit form when the top bytes
     * are zero or the 16-bit checksum is not); in DATA bodies, the run of fast-auth headers at the start */
    while (off + 10 <= s->len) {
        const guint8 *h = s->data + off;
        gboolean wide = (h[0] == 0 && h[1] == 0) || h[2] != 0 || h[3] != 0;
        guint32 plen = wide ? ((guint32)h[0] << 24 | (guint32)h[1] << 16 | (guint32)h[2] << 8 | h[3])
                            : ((guint32)h[0] << 8 | h[1]);
        guint32 end, i, run = 0;
        if (plen < 8)
            break;
        if (off + plen <= s->len && plen > r.packet)
            r.packet = plen;
        end = (guint32)MIN(off + plen, (guint64)s->len);
        if (h[4] == 6) {
            for (i = (guint32)off + 10; i < end; i++) {
                /* any message start: the deepest run of 22 headers from it */
                guint32 j = i;
                run = 0;
                while (j + 4 <= end && s->data[j] == 0x22) {
                    run++;
                    j += 4;
                }
                if (run > r.nest)
                    r.nest = run;
                if (run > 1)
                    i = j - 1;
            }
        }
        off += plen;
    }
    return r;
}

static guint8 *
read_file(const char *path, size_t *len)
{
    gchar *data;
    gsize n;
    if (!g_file_get_contents(path, &data, &n, NULL))
        return NULL;
    *len = n;
    return (guint8 *)data;
}

int
main(int argc, char **argv)
{
    guint8 *pool[POOL];
    size_t plen[POOL];
    guint npool = 0, it, iterations, errors = 0, i;
    size_t max_size, biggest = 0;
    reach_t best = { 0, 0 };
    guint8 *a, *b;
    guint64 pick = 12345;

    if (argc < 4) {
        fprintf(stderr, "usage: mutator_check ITERATIONS MAX_SIZE SEED_FILE...\n");
        return 2;
    }
    iterations = (guint)strtoul(argv[1], NULL, 10);
    max_size = strtoul(argv[2], NULL, 10);
    for (i = 3; i < (guint)argc && npool < POOL; i++) {
        size_t n;
        guint8 *d = read_file(argv[i], &n);
        if (!d || n > max_size) {
            g_free(d);
            continue;
        }
        pool[npool] = d;
        plen[npool++] = n;
    }
    if (!npool)
        return 2;
    a = (guint8 *)g_malloc(max_size);
    b = (guint8 *)g_malloc(max_size);

    for (it = 0; it < iterations; it++) {
        guint src = (guint)((pick = pick * 6364136223846793005u + 1) >> 33) % npool;
        guint other = (guint)((pick = pick * 6364136223846793005u + 1) >> 33) % npool;
        gboolean cross = it % 4 == 3;
        size_t n, n2;
        GByteArray *s;
        reach_t r;

        memcpy(a, pool[src], plen[src]);
        memcpy(b, pool[src], plen[src]);
        stub_state = it;
        n = cross ? LLVMFuzzerCustomCrossOver(pool[src], plen[src], pool[other], plen[other], a, max_size, it)
                  : LLVMFuzzerCustomMutator(a, plen[src], max_size, it);
        stub_state = it;
        n2 = cross ? LLVMFuzzerCustomCrossOver(pool[src], plen[src], pool[other], plen[other], b, max_size, it)
                   : LLVMFuzzerCustomMutator(b, plen[src], max_size, it);
        if (n > max_size || n != n2 || memcmp(a, b, n) != 0) {
            fprintf(stderr, "iteration %u: output %zu/%zu bytes, not deterministic or too big\n", it, n, n2);
            errors++;
            continue;
        }
        if (n == 0)
            continue;
        if (n > biggest)
            biggest = n;
        s = client_stream(a, n);
        r = measure(s);
        g_byte_array_free(s, TRUE);
        /* keep what reaches further (a crude stand-in for coverage) */
        if (r.nest > best.nest || r.packet > best.packet || it % 16 == 0) {
            if (npool < POOL) {
                pool[npool] = (guint8 *)g_memdup2(a, n);
                plen[npool++] = n;
            } else if (it % POOL != src) {
                g_free(pool[it % POOL]);
                pool[it % POOL] = (guint8 *)g_memdup2(a, n);
                plen[it % POOL] = n;
            }
        }
        best.nest = MAX(best.nest, r.nest);
        best.packet = MAX(best.packet, r.packet);
    }
    for (i = 0; i < npool; i++)
        g_free(pool[i]);
    g_free(a);
    g_free(b);
    printf("iterations %u max_output %zu max_nest %u max_client_packet %u errors %u\n", iterations, biggest,
           best.nest, best.packet, errors);
    return errors ? 1 : 0;
}
