/* sqlnet_fuzzer.c - libFuzzer harness: one TCP conversation through libwireshark.
 *
 * The plugin sources are compiled into this binary (instrumented with
 * ASan/UBSan and coverage); libwireshark is the stock Debian library.  Each
 * input is one TCP conversation between 10.0.0.2:40000 (client) and
 * 10.0.0.1:1521 (server), given as direction-tagged chunks:
 *
 *   input  := config chunk*
 *   config := 1 byte   bit0: server port 2484 (not a sqlnet port: heuristics)
 *                      bit1: no TCP three-way handshake in the "capture"
 *   chunk  := flags(1) length(2, or 4 with bit5; big endian) [count(2)] payload(length)
 *             flags bit0: 0 = client -> server, 1 = server -> client
 *             flags bit1: snaplen-truncated frame (half the payload captured)
 *             flags bit2: a segment before this one was lost (sequence gap)
 *             flags bit3: retransmission (same sequence numbers as the last
 *                         bytes sent in this direction)
 *             flags bit4: repeat: count(2, big endian) follows the length and
 *                         the chunk carries its payload count times in a row
 *                         (0 counts as 1): 64 KB of "22 00 00 00" is 9 bytes
 *             flags bit5: long: the length is 4 bytes (chunks over 64 KB)
 *   A last chunk longer than the rest of the input is cut to what is there.
 *   All chunks together carry at most FZ_MAX_STREAM (4 MiB) of payload once
 *   repeated; the rest of the input is ignored.  A chunk of more than
 *   FZ_MAX_SEGMENT (65495) bytes goes out as several consecutive full-size
 *   TCP segments (the flags apply to each), so one TNS packet of any size,
 *   or a run of them, is one chunk or a few.  fz_input.h has the parser.
 *
 * Each chunk becomes Ethernet/IPv4/TCP frames with consistent seq/ack, so
 * the TCP dissector desegments (tcp.desegment_tcp_streams is on by default)
 * and sqlnet sees exactly what it sees in tshark: handshake state, 16- and
 * 32-bit framing, TNS reassembly, TTC messages spanning packets, response
 * aggregation, the tcp segment tap and the sqlnet tap with its statistics
 * (-z sqlnet,tree / sqlnet,srt / sqlnet,stmt listeners are registered and
 * drawn to /dev/null).  Every frame is dissected twice, like tshark -2: a
 * first pass and a revisit with a visible protocol tree and columns; with
 * SQLNET_FUZZ_TREE_EVERY=N (fuzz/run.sh sets it) the revisit runs for one
 * input in N, picked by a hash of the input's bytes, so that an input always
 * gets the same passes (stable coverage; a finding replays).  The revisit
 * costs about twice the first pass (fuzz/README.md).
 *
 * State is per input: every input is its own TCP conversation (a client
 * address of its own) in a shared epan session, like one conversation of a
 * capture file; frame numbers keep growing across inputs.  The session (and
 * with it all file-scope state) is replaced every SESSION_INPUTS inputs:
 * a new session runs every dissector's init routine, which costs ~0.3 s
 * and leaks ~36 MB (under ASan) inside libwireshark 4.0, so it cannot be
 * done per input; fuzz/run.sh restarts the fuzzer every few minutes so that
 * these leaks do not add up to libFuzzer's RSS limit.  WIRESHARK_DEBUG_WMEM_OVERRIDE=simple makes
 * every wmem allocation a separate malloc so ASan sees overruns inside wmem
 * scopes.
 *
 * Stack: every input is dissected on a worker thread with a small stack
 * (FZ_STACK_KB, SQLNET_FUZZ_STACK_KB to change; 0 = on libFuzzer's thread),
 * so recursion whose depth the wire controls overflows it with a small input
 * and shows up as an ASan stack-overflow, where tshark's 8 MB main stack
 * would need a far bigger one.  The worker's deepest stack use is handed to
 * libFuzzer's stack-depth feature (__sancov_lowest_stack), so inputs that
 * recurse deeper are kept in the corpus.  The custom mutator
 * (sqlnet_mutator.c) knows this format; fuzz/sqlnet.dict holds TNS and TTC
 * tokens for -dict.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include <epan/epan.h>
#include <epan/epan_dissect.h>
#include <epan/frame_data.h>
#include <epan/prefs.h>
#include <epan/column.h>
#include <epan/column-info.h>
#include <epan/tap.h>
#include <epan/stat_tap_ui.h>
#include <epan/stats_tree_priv.h>
#include <epan/srt_table.h>
#include <epan/timestamp.h>
#include <wiretap/wtap.h>
#include <wsutil/privileges.h>
#include <wsutil/filesystem.h>
#include <wsutil/wslog.h>
#include <wsutil/report_message.h>

#include "fz_input.h"

/* Built with ASan (fuzz/build.sh) or without sanitizers (fuzz/build.sh --fast) */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FZ_SANITIZED 1
#endif
#endif
#ifndef FZ_SANITIZED
#define FZ_SANITIZED 0
#endif

void plugin_register(void);   /* plugin/plugin.c, linked in */

#define MAX_FRAMES     4096
#define SESSION_INPUTS 1000   /* default of SQLNET_FUZZ_SESSION_INPUTS */
#define ETH_LEN        14
#define IP_LEN         20
#define TCP_LEN        20
#define HDRS_LEN       (ETH_LEN + IP_LEN + TCP_LEN)
/* Worker stack: every seed (142 streams of test-captures/ and the public
 * captures) and regression input passes with 32 KiB under ASan; a recursion
 * of ~200 levels of the plugin's 2.5 KB (ASan) decoder frames does not fit.
 * ASan frames are several times bigger than plain ones: this is about a
 * 128 KiB stack for the plain plugin. */
#if FZ_SANITIZED
#define FZ_STACK_KB    512
#else
#define FZ_STACK_KB    128   /* every seed and regression input passes with it */
#endif

typedef struct {
    guint8  *data;
    guint32  caplen, len;
    nstime_t ts;
} fz_frame_t;

struct packet_provider_data {
    fz_frame_t *frames;
    frame_data *fds;
    guint32     count;
    guint32     base;           /* frame number of frames[0] minus one */
};

static struct packet_provider_data prov;
static column_info fz_cinfo;
static srt_data_t fz_srt;
static epan_t *fz_session;
static guint32 fz_session_inputs;
static gboolean fz_print;     /* SQLNET_FUZZ_PRINT=1: frame, protocol, info on stderr */
/* SQLNET_FUZZ_MAX_STREAM: bytes of expanded payload per input (default and
 * at most FZ_MAX_STREAM); a smaller cap makes the rare multi-MiB streams
 * that dominate a campaign's time cheaper (to_pcap.py always uses 4 MiB) */
static guint32 fz_max_stream = FZ_MAX_STREAM;
/* SQLNET_FUZZ_TREE_EVERY=N: the second pass (tree and columns) runs for one
 * input in N, chosen by a hash of the input (so an input always gets the
 * same passes: its coverage is stable and a finding replays); the default 1
 * runs it for every input, and so does SQLNET_FUZZ_PRINT */
static guint32 fz_tree_every = 1;
/* SQLNET_FUZZ_SESSION_INPUTS: inputs per epan session (see above) */
static guint32 fz_session_max = SESSION_INPUTS;

static const nstime_t *
fz_get_frame_ts(struct packet_provider_data *p, guint32 num)
{
    static const nstime_t zero;
    if (p && num > p->base && num <= p->base + p->count)
        return &p->frames[num - p->base - 1].ts;
    return &zero;
}

static void
fz_set_pref(const char *pref)
{
    char *err = NULL;
    char *arg = g_strdup(pref);
    prefs_set_pref_e ret = prefs_set_pref(arg, &err);
    g_free(arg);
    if (ret != PREFS_SET_OK) {
        fprintf(stderr, "sqlnet_fuzzer: cannot set %s: %s\n", pref, err ? err : "?");
        exit(2);
    }
    g_free(err);
}

/* The statistics a user asks for with -z: their tap listeners run on every
 * sqlnet tap record and are drawn after every input. */
static void
fz_register_stats(void)
{
    stats_tree_cfg *cfg;
    register_srt_t *srt;
    GString *err;

    if (!process_stat_cmd_arg("sqlnet,stmt")) {
        fprintf(stderr, "sqlnet_fuzzer: no sqlnet,stmt statistic\n");
        exit(2);
    }
    start_requested_stats();

    cfg = stats_tree_get_cfg_by_abbr("sqlnet");
    if (!cfg) {
        fprintf(stderr, "sqlnet_fuzzer: no sqlnet stats tree\n");
        exit(2);
    }
    {
        stats_tree *st = stats_tree_new(cfg, NULL, NULL);
        err = register_tap_listener(cfg->tapname, st, NULL, cfg->flags, stats_tree_reset,
                                    stats_tree_packet, NULL, NULL);
        if (err) {
            fprintf(stderr, "sqlnet_fuzzer: %s\n", err->str);
            exit(2);
        }
        if (cfg->init)
            cfg->init(st);
    }

    srt = get_srt_table_by_name("sqlnet");
    if (!srt) {
        fprintf(stderr, "sqlnet_fuzzer: no sqlnet srt table\n");
        exit(2);
    }
    fz_srt.srt_array = g_array_new(FALSE, TRUE, sizeof(srt_stat_table *));
    srt_table_dissector_init(srt, fz_srt.srt_array);
    err = register_tap_listener(get_srt_tap_listener_name(srt), &fz_srt, NULL, 0, NULL,
                                get_srt_packet_func(srt), NULL, NULL);
    if (err) {
        fprintf(stderr, "sqlnet_fuzzer: %s\n", err->str);
        exit(2);
    }
}

/* Messages libwireshark reports while starting (a missing file, a bad
 * preference): printed, never fatal. */
static void
fz_vreport(const char *fmt, va_list ap)
{
    fprintf(stderr, "sqlnet_fuzzer: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
}

static void
fz_open_failure(const char *name, int err, gboolean for_writing)
{
    fprintf(stderr, "sqlnet_fuzzer: cannot open %s for %s: %s\n", name,
            for_writing ? "writing" : "reading", g_strerror(err));
}

static void
fz_rw_failure(const char *name, int err)
{
    fprintf(stderr, "sqlnet_fuzzer: %s: %s\n", name, g_strerror(err));
}

static void
fz_cfile_failure(const char *name, int err, gchar *info)
{
    fprintf(stderr, "sqlnet_fuzzer: %s: error %d %s\n", name, err, info ? info : "");
}

static void
fz_cfile_dump_failure(const char *name, int err, gchar *info, int type)
{
    fz_cfile_failure(name, err, info);
    (void)type;
}

static void
fz_cfile_write_failure(const char *in, const char *out, int err, gchar *info, guint32 num, int type)
{
    fz_cfile_failure(out, err, info);
    (void)in; (void)num; (void)type;
}

static void
fz_cfile_close_failure(const char *name, int err, gchar *info)
{
    fz_cfile_failure(name, err, info);
}

static const struct report_message_routines fz_report = {
    fz_vreport, fz_vreport, fz_open_failure, fz_rw_failure, fz_rw_failure, fz_cfile_failure,
    fz_cfile_dump_failure, fz_cfile_failure, fz_cfile_write_failure, fz_cfile_close_failure
};

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *buf, size_t len);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
    e_prefs *p;
    char *err;

    /* No user profile, no plugins from disk: only the sqlnet linked in. */
    g_setenv("XDG_CONFIG_HOME", "/nonexistent/sqlnet-fuzz", 1);
    g_setenv("WIRESHARK_CONFIG_DIR", "/nonexistent/sqlnet-fuzz", 1);
#if FZ_SANITIZED
    /* every wmem allocation a separate malloc, so ASan sees overruns inside
     * wmem scopes; the throughput build keeps wmem's block allocators (a
     * quarter of its instructions went to malloc/free with "simple") */
    g_setenv("WIRESHARK_DEBUG_WMEM_OVERRIDE", "simple", 0);
    g_setenv("G_SLICE", "always-malloc", 0);
#endif
    fz_print = g_getenv("SQLNET_FUZZ_PRINT") != NULL;
    if (g_getenv("SQLNET_FUZZ_SESSION_INPUTS")) {
        unsigned long v = strtoul(g_getenv("SQLNET_FUZZ_SESSION_INPUTS"), NULL, 10);
        if (v > 0)
            fz_session_max = (guint32)MIN(v, 60000ul);   /* client addresses 10.1.x.y */
    }
    if (g_getenv("SQLNET_FUZZ_TREE_EVERY")) {
        unsigned long v = strtoul(g_getenv("SQLNET_FUZZ_TREE_EVERY"), NULL, 10);
        if (v > 1 && !fz_print)
            fz_tree_every = (guint32)MIN(v, 1000000ul);
    }
    if (g_getenv("SQLNET_FUZZ_MAX_STREAM")) {
        unsigned long v = strtoul(g_getenv("SQLNET_FUZZ_MAX_STREAM"), NULL, 10);
        if (v > 0 && v < FZ_MAX_STREAM)
            fz_max_stream = (guint32)v;
    }
    /* tap draw output (stmt table) goes nowhere; libFuzzer reports on stderr */
    if (!freopen("/dev/null", "w", stdout))
        return 1;

    ws_log_init("sqlnet_fuzzer", NULL);
    ws_log_set_level(LOG_LEVEL_CRITICAL);
    init_process_policies();
    init_report_message("sqlnet_fuzzer", &fz_report);
    err = configuration_init((*argv)[0], NULL);
    g_free(err);
    timestamp_set_type(TS_RELATIVE);
    timestamp_set_precision(TS_PREC_AUTO);
    timestamp_set_seconds_type(TS_SECONDS_DEFAULT);

    wtap_init(FALSE);
    plugin_register();
    if (!epan_init(NULL, NULL, FALSE)) {
        fprintf(stderr, "sqlnet_fuzzer: epan_init failed\n");
        exit(2);
    }
    {
        /* no built-in tap UIs (tshark's live in ui/cli); the plugin's own
         * (stats_register_taps) are called from here */
        static tap_reg_t none[] = { { NULL, NULL } };
        register_all_tap_listeners(none);
    }
    p = epan_load_settings();

    fz_set_pref("tcp.desegment_tcp_streams:TRUE");
    fz_set_pref("tcp.analyze_sequence_numbers:TRUE");
    fz_set_pref("tcp.check_checksum:FALSE");
    fz_set_pref("ip.check_checksum:FALSE");
    fz_set_pref("sqlnet.desegment:TRUE");
    fz_set_pref("gui.column.format:\"No.\",\"%m\",\"Protocol\",\"%p\",\"Info\",\"%i\"");
    prefs_apply_all();

    build_column_format_array(&fz_cinfo, p->num_cols, TRUE);
    fz_register_stats();
    return 0;
}

/* ---- building frames --------------------------------------------------- */

typedef struct {
    guint32 seq[2];          /* next sequence number per direction (0 = client) */
    guint16 sport, dport;
    guint8  client_ip[4];
} fz_conv_t;

static void
put16(guint8 *p, guint16 v)
{
    p[0] = (guint8)(v >> 8);
    p[1] = (guint8)v;
}

static void
put32(guint8 *p, guint32 v)
{
    p[0] = (guint8)(v >> 24);
    p[1] = (guint8)(v >> 16);
    p[2] = (guint8)(v >> 8);
    p[3] = (guint8)v;
}

static void
fz_add_frame(fz_conv_t *c, int dir, guint8 tcp_flags, const guint8 *payload, guint32 plen,
             gboolean truncated, guint32 seq)
{
    fz_frame_t *f;
    guint8 *d;
    guint32 num;

    if (prov.count >= MAX_FRAMES)
        return;
    num = prov.count++;
    f = &prov.frames[num];
    memset(f, 0, sizeof(*f));
    memset(&prov.fds[num], 0, sizeof(prov.fds[num]));
    f->len = HDRS_LEN + plen;
    f->caplen = truncated ? HDRS_LEN + plen / 2 : f->len;
    f->data = d = (guint8 *)g_malloc0(f->len);
    f->ts.secs = 1700000000 + (prov.base + num) / 1000;
    f->ts.nsecs = (int)((prov.base + num) % 1000) * 1000000;

    /* Ethernet */
    memcpy(d, dir ? "\x02\x00\x00\x00\x00\x02" : "\x02\x00\x00\x00\x00\x01", 6);
    memcpy(d + 6, dir ? "\x02\x00\x00\x00\x00\x01" : "\x02\x00\x00\x00\x00\x02", 6);
    put16(d + 12, 0x0800);
    /* IPv4 */
    d += ETH_LEN;
    d[0] = 0x45;
    put16(d + 2, (guint16)MIN(IP_LEN + TCP_LEN + plen, 0xffff));
    put16(d + 4, (guint16)num);
    d[6] = 0x40;           /* DF */
    d[8] = 64;
    d[9] = 6;              /* TCP */
    memcpy(d + 12, dir ? (const guint8 *)"\x0a\x00\x00\x01" : c->client_ip, 4);
    memcpy(d + 16, dir ? c->client_ip : (const guint8 *)"\x0a\x00\x00\x01", 4);
    /* TCP */
    d += IP_LEN;
    put16(d, dir ? c->dport : c->sport);
    put16(d + 2, dir ? c->sport : c->dport);
    put32(d + 4, seq);
    put32(d + 8, (tcp_flags & 0x10) ? c->seq[!dir] : 0);
    d[12] = 5 << 4;
    d[13] = tcp_flags;
    put16(d + 14, 65535);
    if (plen)
        memcpy(d + TCP_LEN, payload, plen);
}

/* The frames of one chunk: its payload count times, in segments of at most
 * FZ_MAX_SEGMENT bytes, within what is left of the stream budget.  FALSE
 * when the budget is spent. */
static gboolean
fz_add_chunk(fz_conv_t *c, const fz_chunk_t *ch, guint32 *budget)
{
    int dir = ch->flags & FZ_DIR_SERVER;
    guint64 want = (guint64)ch->len * ch->count;
    guint32 total = (guint32)MIN(want, (guint64)*budget);
    gboolean retrans;
    guint8 *data = NULL;
    const guint8 *p = ch->payload;
    guint32 base, off;

    if (want > 0 && total == 0)
        return FALSE;
    *budget -= total;
    if (ch->flags & FZ_GAP)
        c->seq[dir] += 1000;                                       /* lost segment */
    if (total == 0 && !(ch->flags & FZ_RETRANS)) {
        fz_add_frame(c, dir, 0x10, NULL, 0, FALSE, c->seq[dir]);   /* bare ACK */
        return TRUE;
    }
    if (total > ch->len) {
        data = (guint8 *)g_malloc(total);
        for (off = 0; off < total; off += ch->len)
            memcpy(data + off, ch->payload, MIN(ch->len, total - off));
        p = data;
    }
    retrans = (ch->flags & FZ_RETRANS) && c->seq[dir] >= total;
    base = retrans ? c->seq[dir] - total : c->seq[dir];
    off = 0;
    do {
        guint32 n = MIN(total - off, FZ_MAX_SEGMENT);
        fz_add_frame(c, dir, 0x18, p + off, n, (ch->flags & FZ_TRUNCATED) != 0, base + off);
        off += n;
    } while (off < total && prov.count < MAX_FRAMES);
    if (!retrans)
        c->seq[dir] += total;
    g_free(data);
    return *budget > 0;
}

/* ---- dissection -------------------------------------------------------- */

static void
fz_dissect_all(epan_t *session, gboolean tree, column_info *cinfo)
{
    epan_dissect_t *edt = epan_dissect_new(session, tree, tree);
    frame_data *prev_dis = NULL, *prev_cap = NULL;
    frame_data ref_frame;
    const frame_data *ref = NULL;
    nstime_t elapsed = NSTIME_INIT_ZERO;
    guint32 cum_bytes = 0;
    guint32 i;

    for (i = 0; i < prov.count; i++) {
        fz_frame_t *f = &prov.frames[i];
        frame_data *fd = &prov.fds[i];
        wtap_rec rec;
        tvbuff_t *tvb;

        wtap_rec_init(&rec);
        rec.rec_type = REC_TYPE_PACKET;
        rec.block = NULL;
        rec.presence_flags = WTAP_HAS_TS | WTAP_HAS_CAP_LEN;
        rec.ts = f->ts;
        rec.tsprec = WTAP_TSPREC_NSEC;
        rec.rec_header.packet_header.caplen = f->caplen;
        rec.rec_header.packet_header.len = f->len;
        rec.rec_header.packet_header.pkt_encap = WTAP_ENCAP_ETHERNET;

        if (!tree) {
            frame_data_init(fd, prov.base + i + 1, &rec, (gint64)(prov.base + i) * 65536, cum_bytes);
        }
        frame_data_set_before_dissect(fd, &elapsed, &ref, prev_dis);
        if (ref == fd) {
            ref_frame = *fd;
            ref = &ref_frame;
        }
        tvb = tvb_new_real_data(f->data, f->caplen, (gint)f->len);
        epan_dissect_run_with_taps(edt, WTAP_FILE_TYPE_SUBTYPE_UNKNOWN, &rec, tvb, fd, cinfo);
        if (cinfo) {
            epan_dissect_fill_in_columns(edt, FALSE, TRUE);
            if (fz_print)
                fprintf(stderr, "%u\t%s\t%s\n", i + 1, col_get_text(cinfo, COL_PROTOCOL),
                        col_get_text(cinfo, COL_INFO));
        }
        frame_data_set_after_dissect(fd, &cum_bytes);
        prev_dis = prev_cap = fd;
        epan_dissect_reset(edt);
        wtap_rec_cleanup(&rec);
    }
    (void)prev_cap;
    epan_dissect_free(edt);
}

/* Whether this input gets the second pass (see fz_tree_every): FNV-1a of
 * its bytes. */
static gboolean
fz_wants_tree(const uint8_t *buf, size_t len)
{
    guint32 h = 2166136261u;
    size_t i;

    if (fz_tree_every <= 1)
        return TRUE;
    for (i = 0; i < len; i++)
        h = (h ^ buf[i]) * 16777619u;
    return h % fz_tree_every == 0;
}

static void
fz_run_input(const uint8_t *buf, size_t len)
{
    static const struct packet_provider_funcs funcs = { fz_get_frame_ts, NULL, NULL, NULL };
    fz_conv_t c = { { 1000, 5000 }, 40000, 1521, { 10, 1, 0, 0 } };
    guint32 budget = fz_max_stream;
    size_t off = 1;
    fz_chunk_t ch;
    guint32 i;
    guint8 config;

    if (!fz_session || fz_session_inputs >= fz_session_max) {
        epan_free(fz_session);
        fz_session = epan_new(&prov, &funcs);
        fz_session_inputs = 0;
        prov.base = 0;
    }
    config = buf[0];
    c.client_ip[2] = (guint8)(fz_session_inputs >> 8);
    c.client_ip[3] = (guint8)fz_session_inputs;
    if (config & 0x01)
        c.dport = 2484;

    /* allocated once; fz_add_frame clears the entries it uses */
    if (!prov.frames) {
        prov.frames = g_new0(fz_frame_t, MAX_FRAMES);
        prov.fds = g_new0(frame_data, MAX_FRAMES);
    }
    prov.count = 0;

    if (!(config & 0x02)) {
        c.seq[0]--;
        c.seq[1]--;
        fz_add_frame(&c, 0, 0x02, NULL, 0, FALSE, c.seq[0]++);     /* SYN */
        fz_add_frame(&c, 1, 0x12, NULL, 0, FALSE, c.seq[1]++);     /* SYN/ACK */
        fz_add_frame(&c, 0, 0x10, NULL, 0, FALSE, c.seq[0]);       /* ACK */
    }
    while (prov.count < MAX_FRAMES && fz_next_chunk(buf, len, &off, &ch) &&
           fz_add_chunk(&c, &ch, &budget))
        ;

    reset_tap_listeners();
    fz_dissect_all(fz_session, FALSE, NULL);       /* first pass, like tshark -2 */
    if (fz_wants_tree(buf, len))
        fz_dissect_all(fz_session, TRUE, &fz_cinfo);   /* revisit with tree and columns */
    draw_tap_listeners(TRUE);
    fz_session_inputs++;
    prov.base += prov.count;

    for (i = 0; i < prov.count; i++) {
        frame_data_destroy(&prov.fds[i]);
        g_free(prov.frames[i].data);
    }
    prov.count = 0;
}

/* ---- the worker thread with a small stack --------------------------------- */

/* libFuzzer's stack-depth feature (clang -fsanitize=fuzzer on Linux): the
 * lowest stack address instrumented code reached, per thread. */
extern __thread uintptr_t __sancov_lowest_stack __attribute__((weak));

static struct {
    pthread_mutex_t mu;
    pthread_cond_t  cv;
    const uint8_t  *buf;
    size_t          len;
    gboolean        queued, done;
    uintptr_t       depth;         /* deepest stack use of the last input */
} fz_job = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0, FALSE, FALSE, 0 };

static void *
fz_worker(void *arg)
{
    (void)arg;
#if !FZ_SANITIZED
    {
        /* A stack overflow is a SIGSEGV on this thread's guard page: the
         * handler (libFuzzer's "deadly signal", which saves the input) needs
         * a stack of its own.  ASan sets one up for every thread itself. */
        stack_t ss;
        ss.ss_size = 256 * 1024;
        ss.ss_sp = g_malloc(ss.ss_size);
        ss.ss_flags = 0;
        if (sigaltstack(&ss, NULL) != 0) {
            fprintf(stderr, "sqlnet_fuzzer: sigaltstack failed\n");
            exit(2);
        }
    }
#endif
    pthread_mutex_lock(&fz_job.mu);
    for (;;) {
        uintptr_t top;
        while (!fz_job.queued)
            pthread_cond_wait(&fz_job.cv, &fz_job.mu);
        fz_job.queued = FALSE;
        pthread_mutex_unlock(&fz_job.mu);

        top = (uintptr_t)__builtin_frame_address(0);
        if (&__sancov_lowest_stack)
            __sancov_lowest_stack = top;
        fz_run_input(fz_job.buf, fz_job.len);

        pthread_mutex_lock(&fz_job.mu);
        fz_job.depth = &__sancov_lowest_stack && __sancov_lowest_stack < top ? top - __sancov_lowest_stack : 0;
        fz_job.done = TRUE;
        pthread_cond_broadcast(&fz_job.cv);
    }
    return NULL;
}

/* Start the worker with a stack of kb KiB; FALSE if kb is 0 (no worker). */
static gboolean
fz_worker_start(void)
{
    static int state;              /* 0 not started, 1 running, 2 none */
    const char *env;
    unsigned long kb = FZ_STACK_KB;
    pthread_attr_t attr;
    pthread_t tid;
    sigset_t block, old;
    int err;

    if (state)
        return state == 1;
    env = g_getenv("SQLNET_FUZZ_STACK_KB");
    if (env)
        kb = strtoul(env, NULL, 10);
    state = 2;
    if (kb == 0)
        return FALSE;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, MAX(kb * 1024, (unsigned long)PTHREAD_STACK_MIN));
    pthread_attr_setguardsize(&attr, 64 * 1024);   /* a big frame does not jump the guard */
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    /* Asynchronous signals stay with libFuzzer's thread: its -timeout alarm
     * does nothing on any other thread. */
    sigfillset(&block);
    sigdelset(&block, SIGSEGV);
    sigdelset(&block, SIGBUS);
    sigdelset(&block, SIGFPE);
    sigdelset(&block, SIGILL);
    sigdelset(&block, SIGABRT);
    sigdelset(&block, SIGTRAP);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    err = pthread_create(&tid, &attr, fz_worker, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (err) {
        fprintf(stderr, "sqlnet_fuzzer: cannot start the worker thread: %s\n", g_strerror(err));
        exit(2);
    }
    state = 1;
    return TRUE;
}

int
LLVMFuzzerTestOneInput(const uint8_t *buf, size_t len)
{
    uintptr_t here;

    if (len < 1)
        return 0;
    if (!fz_worker_start()) {
        fz_run_input(buf, len);
        return 0;
    }
    here = (uintptr_t)__builtin_frame_address(0);
    pthread_mutex_lock(&fz_job.mu);
    fz_job.buf = buf;
    fz_job.len = len;
    fz_job.done = FALSE;
    fz_job.queued = TRUE;
    pthread_cond_broadcast(&fz_job.cv);
    while (!fz_job.done)
        pthread_cond_wait(&fz_job.cv, &fz_job.mu);
    /* the worker's depth counts as this thread's, for libFuzzer */
    if (&__sancov_lowest_stack && here - fz_job.depth < __sancov_lowest_stack)
        __sancov_lowest_stack = here - fz_job.depth;
    if (fz_print)
        fprintf(stderr, "stack\t%lu bytes\n", (unsigned long)fz_job.depth);
    pthread_mutex_unlock(&fz_job.mu);
    return 0;
}
