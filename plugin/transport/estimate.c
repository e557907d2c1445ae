/* estimate.c - the tap of estimated encrypted round trips (see estimate.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <epan/packet.h>
#include <epan/tap.h>

#include "estimate.h"

static int tap_est = -1;

void
sqlnet_est_register(void)
{
    tap_est = register_tap(SQLNET_EST_TAP);
}

int
sqlnet_est_tap(void)
{
    return tap_est;
}
