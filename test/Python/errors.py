# RUN: %python %s | FileCheck %s -DTARGETS="%rlx_targets" --check-prefixes=CHECK%if target-vulkan %{,VULKAN%}
# Bad input from Python raises an exception that says what is wrong (and
# where, for MLIR diagnostics: the Python line that built the op); nothing
# crashes.
import numpy as np

import rlx

ctx = rlx.Context()
t48, t716 = ctx.tensor((4, 8)), ctx.tensor((7, 16))


def expect(exception, fn):
    try:
        fn()
    except exception as e:
        print("%s: %s" % (type(e).__name__, str(e).replace("\n", " | ")))
        return
    raise AssertionError("no %s" % exception.__name__)


def bad_matmul():
    with rlx.Function("f", [t48, t716]) as f:
        rlx.matmul(*f.args)  # the line the diagnostic names


expect(rlx.RLXError, bad_matmul)
# CHECK: RLXError: cannot build 'rlx.matmul' | {{.*}}errors.py:24:1: error: 'rlx.matmul' op contracting dims differ: 'lhs' has 8, 'rhs' has 7


def bad_attribute():
    with rlx.Function("f", [ctx.tensor((1, 2, 4, 8)), ctx.tensor((4, 4)),
                            ctx.tensor((4, 4))]) as f:
        rlx.rope(*f.args, style="sideways")


expect(rlx.RLXError, bad_attribute)
# CHECK: RLXError: the module does not verify | {{.*}}errors.py:{{[0-9]+}}:1: error: 'rlx.rope' op attribute 'style' failed to satisfy constraint: rotary embedding layout: one of 'neox', 'gptj'


def missing_attribute():
    with rlx.Function("f", [t48]) as f:
        rlx.softmax(f.args[0])


expect(TypeError, missing_attribute)
# CHECK: TypeError: softmax() missing 1 required keyword-only argument: 'axis'


def no_result_types():
    with rlx.Function("f", [t48]) as f:
        rlx.reshape(f.args[0])


expect(TypeError, no_result_types)
# CHECK: TypeError: rlx.reshape does not infer its result types: pass result_types=[...]

expect(RuntimeError, lambda: rlx.exp(None))
# CHECK: RuntimeError: rlx ops are built inside `with rlx.Function(...)`


def not_a_value():
    with rlx.Function("f", [t48]) as f:
        rlx.add(f.args[0], 1.0)


expect(TypeError, not_a_value)
# CHECK: TypeError: rlx.add: operands are rlx Values, got 1.0

with rlx.Function("double", [t48]) as f:
    f.returns(rlx.add(f.args[0], f.args[0]))
program = rlx.compile(f)
expect(TypeError, lambda: program(np.zeros((4, 8), np.float64)))
# CHECK: TypeError: @double: argument #0 expects tensor<4x8xf32> (NumPy float32), got a float64 array
expect(ValueError, lambda: program(np.zeros((4, 7), np.float32)))
# CHECK: ValueError: @double: argument #0 expects tensor<4x8xf32>: its dim 1 is 8, got 7 (shape (4, 7))
expect(TypeError, lambda: program())
# CHECK: TypeError: @double takes 1 arguments (tensor<4x8xf32>), 0 given
expect(rlx.RLXError, lambda: rlx.compile(f.module, function="nosuch"))
# CHECK: RLXError: cannot compile @nosuch for the CPU | {{.*}}error: no function 'nosuch' with a body to compile
expect(rlx.RLXError, lambda: rlx.compile(f, options="no-such-option=1"))
# CHECK: RLXError: cannot compile @double for the CPU | {{.*}}error: bad rlx-cpu-pipeline options 'no-such-option=1'
# The targets are the registry's (those the build has), as rlx-compile
# --list-targets names them.
print("targets:", ", ".join(rlx.targets()))
# CHECK: targets: [[TARGETS]]
expect(ValueError, lambda: rlx.compile(f, target="tpu"))
# CHECK: ValueError: rlx.compile: unknown target 'tpu' (registered: [[TARGETS]])
if "vulkan" in rlx.targets():
    expect(NotImplementedError, lambda: rlx.compile(f, target="vulkan"))
# VULKAN: NotImplementedError: rlx.compile: target 'vulkan' is not callable from Python (cpu{{( and cuda are| is)}}); compile it with rlx-compile --target=vulkan

# The same call after the errors still works.
x = np.arange(32, dtype=np.float32).reshape(4, 8)
assert np.array_equal(program(x), 2 * x)
print("still works")
# CHECK: still works
