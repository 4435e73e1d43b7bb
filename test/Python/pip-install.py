# RUN: %python %s
# `pip install --no-build-isolation build/python` gives a working package:
# installed into a fresh folder, imported from there alone (not from the
# build tree), it builds, compiles and runs a function.
import os
import subprocess
import sys
import tempfile

package = os.path.join(os.environ["RLX_BUILD_DIR"], "python")
with tempfile.TemporaryDirectory() as target:
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet",
                    "--no-build-isolation", "--no-deps", "--no-index",
                    "--target", target, package], check=True)
    program = """
import numpy as np, rlx
assert rlx.__file__.startswith(%r), rlx.__file__
ctx = rlx.Context()
with rlx.Function("f", [ctx.tensor((3,))]) as f:
    f.returns(rlx.exp(f.args[0]))
x = np.array([0.0, 1.0, -1.0], np.float32)
assert np.allclose(rlx.compile(f)(x), np.exp(x.astype(np.float64)), 1e-6)
print("installed package works")
""" % target
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = target
    out = subprocess.run([sys.executable, "-c", program], env=env,
                         capture_output=True, text=True)
    print(out.stdout, out.stderr)
    sys.exit(out.returncode)
