/* lua_facts.h - the per-packet facts the SQL*Net Advisor reads besides the
 * round trips (TCP handshake options, retransmissions, late ACKs, zero
 * windows, TLS segments, the logon's driver, the ACCEPT's endpoints, TNS
 * over TLS not decrypted), collected by C listeners that need no protocol
 * tree: see lua_facts.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_LUA_FACTS_H
#define SQLNET_LUA_FACTS_H

#include <glib.h>

typedef enum {
    LUA_FACT_SYN = 0,          /* a SYN: a = MSS (have_a), b = timestamps option */
    LUA_FACT_RETRANS,          /* tcp.analysis.retransmission */
    LUA_FACT_LATE_ACK,         /* tcp.len == 0 && tcp.analysis.ack_rtt >= 0.025: x = ack_rtt (s), a = port key */
    LUA_FACT_WINDOW,           /* tcp.analysis.zero_window || window_update: a = source port, b = zero */
    LUA_FACT_SEGMENT,          /* tls && tcp.len > 0: a = port key, b = frame length, c = tcp.len */
    LUA_FACT_AUTH,             /* sqlnet.auth.value: a = the driver bits (LUA_FACT_DRIVER_*) */
    LUA_FACT_ACCEPT,           /* sqlnet.type == 2: s1:a = source, s2:b = destination */
    LUA_FACT_UNDECRYPTED,      /* sqlnet.tls.undecrypted: a = the server port */
    LUA_FACT_NKINDS
} lua_fact_kind_t;

#define LUA_FACT_DRIVER_JDBC   0x1   /* a value with "jdbc" (any case) */
#define LUA_FACT_DRIVER_GOORA  0x2   /* "oracleclientgo" */
#define LUA_FACT_DRIVER_NODE   0x4   /* "node-oracledb" */
#define LUA_FACT_DRIVER_PYTHON 0x8   /* "python-oracledb" */

typedef struct {
    guint8   kind;             /* lua_fact_kind_t */
    gboolean have_a, have_stream;
    guint32  frame;
    gint64   stream;           /* tcp.stream of the frame */
    guint32  a, b, c;
    double   t;                /* the frame's time as Lua's pinfo.abs_ts */
    double   x;
    char    *s1, *s2;          /* owned */
} lua_fact_t;

typedef struct lua_facts lua_facts_t;

lua_facts_t *lua_facts_new(void);
/* Registers the listeners (no filter, no tree); FALSE with *err (g_free) on failure. */
gboolean lua_facts_start(lua_facts_t *f, char **err);
void lua_facts_stop(lua_facts_t *f);
void lua_facts_free(lua_facts_t *f);
guint lua_facts_count(const lua_facts_t *f);
const lua_fact_t *lua_facts_get(const lua_facts_t *f, guint i);
void lua_facts_clear(lua_facts_t *f);
const char *lua_fact_kind_name(guint kind);

#endif /* SQLNET_LUA_FACTS_H */
