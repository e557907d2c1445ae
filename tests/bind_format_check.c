/* bind_format_check.c - reads "n<hex>" (NUMBER), "d<hex>" (DATE/TIMESTAMP) and
 * "f<hex>" (BINARY_FLOAT/DOUBLE) lines on stdin and prints plugin/decoders/ttc_values.c's text
 * of each (or <bad>); tests/test_bind_values.py compiles it with ttc_values.c and
 * ttc_codec.c and compares with values it encodes itself.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>

#include <epan/packet.h>

#include "sqlnet.h"
#include "ttc_values.h"

/* what ttc_values.c uses from the rest of the plugin (not called by the formatters) */
const value_string ttc_ora_type_vals[] = { { 0, NULL } };
const sqlnet_prefs_t *sqlnet_prefs(void) { return NULL; }

int
main(void)
{
    char line[512];

    while (fgets(line, sizeof(line), stdin)) {
        guint8 b[64];
        guint n = 0;
        char out[256];
        const char *p = line + 1;
        gboolean ok;

        while (p[0] && p[1] && p[0] != '\n' && n < sizeof(b)) {
            unsigned v;
            if (sscanf(p, "%2x", &v) != 1)
                break;
            b[n++] = (guint8)v;
            p += 2;
        }
        if (line[0] == 'n')
            ok = ttc_format_number(b, n, out, sizeof(out));
        else if (line[0] == 'd')
            ok = ttc_format_date(b, n, out, sizeof(out));
        else
            ok = ttc_format_binary_float(b, n, out, sizeof(out));
        printf("%s\n", ok ? out : "<bad>");
    }
    return 0;
}
