/* compat.h - every difference between supported Wireshark releases, in one place.
 *
 * sqlnet builds against the Wireshark SDK it finds (4.0 on Debian 12, 4.4 on
 * Debian 13, 4.6 on Debian unstable).  Code elsewhere uses only the macros
 * below, never a version test of its own.  The code is written against the
 * newest API; older SDKs get the new names here.
 *
 * Thresholds are the first supported release with the change (built and
 * tested by scripts/buildroot.sh); 4.2 itself is not a supported target.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_COMPAT_H
#define SQLNET_COMPAT_H

#include <stdbool.h>
#include <glib.h>
#include <ws_version.h>

#define SQLNET_WS_AT_LEAST(maj, min) \
    (WIRESHARK_VERSION_MAJOR > (maj) || \
     (WIRESHARK_VERSION_MAJOR == (maj) && WIRESHARK_VERSION_MINOR >= (min)))

/* ---- plugin registration ------------------------------------------------ */

/* 4.2 added plugin_describe() and the plugin type flags (wsutil/plugins.h).
 * SQLNET_PLUGIN_DESCRIBE(flags) defines it where it exists, nothing before. */
#if SQLNET_WS_AT_LEAST(4, 2)
#  include <wsutil/plugins.h>
#  define SQLNET_HAVE_PLUGIN_DESCRIBE 1
#  define SQLNET_PLUGIN_DESCRIBE(flags) \
    WS_DLL_PUBLIC uint32_t plugin_describe(void); \
    uint32_t plugin_describe(void) { return (flags); }
#else
#  define SQLNET_HAVE_PLUGIN_DESCRIBE 0
#  define SQLNET_PLUGIN_DESCRIBE(flags)
#endif

/* Field/protocol registration ids: int in 4.0-4.2; 4.4+ still accept int. */
typedef int sqlnet_hf_t;

/* ---- gboolean -> bool ---------------------------------------------------- */

/* 4.4: prefs_register_bool_preference() takes bool *, heuristic dissectors
 * (heur_dissector_t) return bool; 4.0 uses gboolean for both. */
/* wmem_user_cb_t (wmem_register_callback) returns bool from 4.4 on too. */
#if SQLNET_WS_AT_LEAST(4, 4)
typedef bool sqlnet_pref_bool_t;
typedef bool sqlnet_heur_result_t;
typedef bool sqlnet_wmem_cb_result_t;
#else
typedef gboolean sqlnet_pref_bool_t;
typedef gboolean sqlnet_heur_result_t;
typedef gboolean sqlnet_wmem_cb_result_t;
#endif

/* ---- tvb accessors ------------------------------------------------------- */

/* 4.4 deprecated tvb_get_guint8() for tvb_get_uint8(); the code uses the new
 * name, 4.0 gets it here. */
#if !SQLNET_WS_AT_LEAST(4, 4)
#  define tvb_get_uint8 tvb_get_guint8
#endif

/* ---- strings ------------------------------------------------------------- */

/* format_text(): const guchar * in 4.0 (epan/strutil.h), const char * from
 * 4.4 (wsutil/str_util.h).  sqlnet_format_text() takes a C string. */
#if SQLNET_WS_AT_LEAST(4, 4)
#  include <wsutil/str_util.h>
#  define sqlnet_format_text(scope, str, len) format_text((scope), (const char *)(str), (len))
#else
#  include <epan/strutil.h>
#  define sqlnet_format_text(scope, str, len) format_text((scope), (const guchar *)(str), (len))
#endif

/* val_to_str(): 4.6 takes the allocator first (and drops val_to_str_wmem);
 * before, val_to_str_wmem(scope, ...) is the form with an allocator. */
#if SQLNET_WS_AT_LEAST(4, 6)
#  define sqlnet_val_to_str(scope, val, vs, fmt) val_to_str((scope), (val), (vs), (fmt))
#else
#  define sqlnet_val_to_str(scope, val, vs, fmt) val_to_str_wmem((scope), (val), (vs), (fmt))
#endif

/* ---- taps ---------------------------------------------------------------- */

/* stat_tap_ui.tap_init_cb (a "-z" statistic starting): returns bool (false:
 * the listener could not be registered) from 4.6, void before.  Declare it
 * as sqlnet_tap_init_result_t and leave it with SQLNET_TAP_INIT_RETURN(ok). */
#if SQLNET_WS_AT_LEAST(4, 6)
typedef bool sqlnet_tap_init_result_t;
#  define SQLNET_TAP_INIT_RETURN(ok) return (ok)
#else
typedef void sqlnet_tap_init_result_t;
#  define SQLNET_TAP_INIT_RETURN(ok) return
#endif

/* ---- TLS -------------------------------------------------------------- */

/* What the TLS dissector passes to a heuristic on "tls" as its data: from 4.2
 * a struct tlsinfo whose app_handle points at the session's application
 * handle, in 4.0 that pointer itself.  SQLNET_TLS_APP_HANDLE(data) is the
 * dissector_handle_t * a heuristic sets to keep the session (NULL if none). */
#if SQLNET_WS_AT_LEAST(4, 2)
#  include <epan/dissectors/packet-tls.h>
#  define SQLNET_TLS_APP_HANDLE(data) \
    ((data) ? ((struct tlsinfo *)(data))->app_handle : (dissector_handle_t *)NULL)
#else
#  define SQLNET_TLS_APP_HANDLE(data) ((dissector_handle_t *)(data))
#endif

/* ---- field values ------------------------------------------------------ */

/* field_info.value: an fvalue_t * from 4.2, the fvalue_t itself in 4.0.
 * SQLNET_FI_VALUE(fi) is the fvalue_t * either way. */
#if SQLNET_WS_AT_LEAST(4, 2)
#  define SQLNET_FI_VALUE(fi) ((fi)->value)
#else
#  define SQLNET_FI_VALUE(fi) (&(fi)->value)
#endif

/* ---- sequence analysis (Flow Graph) ------------------------------------ */

/* The flags of seq_analysis_item_t/seq_analysis_info_t: bool from 4.2,
 * gboolean in 4.0 (consumers/flow.c declares their leading members). */
#if SQLNET_WS_AT_LEAST(4, 2)
typedef bool sqlnet_seq_bool_t;
#else
typedef gboolean sqlnet_seq_bool_t;
#endif

/* ---- follow streams ------------------------------------------------------ */

/* register_follow_stream() takes a stream-count callback from 4.4 on (and a
 * sub-stream one, NULL here). SQLNET_REGISTER_FOLLOW_STREAM(..., count) passes
 * it where it exists; SQLNET_FOLLOW_HAS_STREAM_COUNT says whether to define it. */
#if SQLNET_WS_AT_LEAST(4, 4)
#  define SQLNET_FOLLOW_HAS_STREAM_COUNT 1
#  define SQLNET_REGISTER_FOLLOW_STREAM(proto, tap, conv_f, index_f, addr_f, port_f, pkt_f, count_f) \
    register_follow_stream((proto), (tap), (conv_f), (index_f), (addr_f), (port_f), (pkt_f), (count_f), NULL)
#else
#  define SQLNET_FOLLOW_HAS_STREAM_COUNT 0
#  define SQLNET_REGISTER_FOLLOW_STREAM(proto, tap, conv_f, index_f, addr_f, port_f, pkt_f, count_f) \
    register_follow_stream((proto), (tap), (conv_f), (index_f), (addr_f), (port_f), (pkt_f))
#endif

#endif /* SQLNET_COMPAT_H */
