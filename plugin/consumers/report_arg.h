/* report_arg.h - the argument of the -z reports (stats.c, stmt.c):
 * "PREFIX[,format=NAME][,FILTER]".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_REPORT_ARG_H
#define SQLNET_REPORT_ARG_H

#include <string.h>
#include <glib.h>

/* *filter (NULL: none) and the format's name and length (*fmt NULL: none given). */
static inline void
report_arg(const char *opt_arg, const char *prefix, const char **filter, const char **fmt, gsize *fmt_len)
{
    gsize n = strlen(prefix);

    *filter = NULL;
    *fmt = NULL;
    *fmt_len = 0;
    if (strncmp(opt_arg, prefix, n) == 0 && opt_arg[n] == ',')
        *filter = opt_arg + n + 1;
    if (*filter && strncmp(*filter, "format=", 7) == 0) {
        const char *end = strchr(*filter + 7, ',');
        *fmt = *filter + 7;
        *fmt_len = end ? (gsize)(end - *fmt) : strlen(*fmt);
        *filter = end && end[1] ? end + 1 : NULL;
    }
}

#endif /* SQLNET_REPORT_ARG_H */
