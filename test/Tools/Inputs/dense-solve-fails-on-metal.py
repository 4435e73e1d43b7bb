#!/usr/bin/env python3
# Interestingness test of rlx-reduce.mlir: exit code 1 (interesting) while
# --rlx-legalize="target=metal" still rejects an rlx.dense_solve in FILE.
import os
import subprocess
import sys

run = subprocess.run([os.environ["RLX_OPT"], sys.argv[1],
                      "--rlx-legalize=target=metal"],
                     capture_output=True, text=True)
wanted = "'rlx.dense_solve' is not supported by target 'metal'"
sys.exit(1 if run.returncode != 0 and wanted in run.stderr else 0)
