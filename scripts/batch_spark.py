#!/usr/bin/env python3
"""sqlnet_batch --spark for spark-submit (docs/batch.md, "On a cluster"):

    spark-submit --master yarn --py-files sqlnet_batch.zip scripts/batch_spark.py --out DIR FILE...

The arguments are sqlnet_batch's; the session is spark-submit's.

SPDX-License-Identifier: GPL-2.0-or-later
"""
import sys

from sqlnet_batch.__main__ import main

if __name__ == "__main__":
    sys.exit(main(["--spark"] + sys.argv[1:]))
