/* compat.h - every difference between supported Wireshark releases, in one place.
 *
 * sqlnet builds against the Wireshark SDK it finds (4.0 on Debian 12, 4.4 on
 * Debian 13, 4.6 on Debian unstable).  Code elsewhere uses only the macros
 * below, never a version test of its own.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_COMPAT_H
#define SQLNET_COMPAT_H

#include <ws_version.h>

#define SQLNET_WS_AT_LEAST(maj, min) \
    (WIRESHARK_VERSION_MAJOR > (maj) || \
     (WIRESHARK_VERSION_MAJOR == (maj) && WIRESHARK_VERSION_MINOR >= (min)))

/* 4.2 added plugin_describe() and the plugin type flags. */
#if SQLNET_WS_AT_LEAST(4, 2)
#  include <wsutil/plugins.h>
#  define SQLNET_HAVE_PLUGIN_DESCRIBE 1
#else
#  define SQLNET_HAVE_PLUGIN_DESCRIBE 0
#endif

/* Field/protocol registration ids: int in 4.0-4.2; 4.4+ still accept int. */
typedef int sqlnet_hf_t;

#endif /* SQLNET_COMPAT_H */
