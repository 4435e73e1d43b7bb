# RUN: %python %s | FileCheck %s --check-prefixes=CHECK%if target-metal %{,METAL%}
# Modules from Python: parse, print, bytecode, pass pipelines, the fusion
# and memory reports, and the errors each raises as rlx.RLXError.
import rlx

ctx = rlx.Context()
MLP = """
func.func @mlp(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %0 = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x16xf32>
  %1 = rlx.add %0, %b : tensor<4x16xf32>, tensor<16xf32>
  %2 = rlx.gelu %1 : tensor<4x16xf32>
  return %2 : tensor<4x16xf32>
}
"""

m = rlx.Module.parse(MLP, ctx)
print(m)
# CHECK-LABEL: func.func @mlp
# CHECK: rlx.matmul
# CHECK: rlx.gelu

# Bytecode round-trips to the same module.
data = m.bytecode()
assert data[:4] == b"ML\xefR", data[:4]
assert str(rlx.Module.parse_bytecode(data, ctx)) == str(m)
print("bytecode: %d bytes, round trip ok" % len(data))
# CHECK: bytecode: {{[0-9]+}} bytes, round trip ok

# Reports run on a copy.
report = m.fusion_report()
print("fusions:", [f["op"] for f in report["fusions"]])
# CHECK: fusions: ['rlx.fused_matmul_bias_act']
assert report["ops_before"] == {"rlx.add": 1, "rlx.gelu": 1, "rlx.matmul": 1}
assert "rlx.gelu" in str(m)
if "metal" in rlx.targets():
    metal = rlx.Module.parse(MLP, ctx).fusion_report(target="metal")
    print("metal leaves off:",
          sorted(f["family"] for f in metal["families_off"]))
# METAL: metal leaves off: ['attention-block', 'transformer-layer']
(memory,) = m.memory_report()
assert memory["function"] == "mlp"
assert memory["lower_bound"] <= memory["arena"] <= memory["naive"], memory
print("memory report of @%s" % memory["function"])
# CHECK: memory report of @mlp
picture = m.memory_report(format="svg")
assert picture._repr_svg_().startswith("<svg"), picture[:80]
print("svg rects:", picture.count('<rect class="buffer"') +
      picture.count('<rect class="view"'),
      "of", memory["buffers"] + memory["aliases"])
# CHECK: svg rects: [[N:[0-9]+]] of [[N]]
assert "<!DOCTYPE html>" in m.memory_report(format="html")._repr_html_()
assert m.memory_report(format="text").startswith("rlx memory report: @mlp")

m.run_pipeline("rlx-optimize{target=cpu}")
print(m)
# CHECK-LABEL: func.func @mlp
# CHECK: rlx.fused_matmul_bias_act {{.*}} activation = gelu
# CHECK-NOT: rlx.gelu


def error(fn):
    try:
        fn()
    except rlx.RLXError as e:
        print("RLXError:", str(e).replace("\n", " | "))
        return e
    raise AssertionError("no RLXError")


# A syntax error, with its location in the text.
e = error(lambda: rlx.Module.parse("func.func @f( {", ctx))
assert e.diagnostics[0][0] == "error" and e.diagnostics[0][1] == "-:1:14"
# CHECK: RLXError: cannot parse the module | -:1:14: error: expected non-function type

# A verifier error.
error(lambda: rlx.Module.parse("""
func.func @f(%x: tensor<4x8xf32>, %w: tensor<7x16xf32>) -> tensor<4x16xf32> {
  %0 = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<7x16xf32>
  return %0 : tensor<4x16xf32>
}""", ctx))
# CHECK: RLXError: cannot parse the module | -:3:8: error: 'rlx.matmul' op contracting dims differ: 'lhs' has 8, 'rhs' has 7

# An unknown pass, and a pass that fails at an op.
error(lambda: m.run_pipeline("rlx-no-such-pass"))
# CHECK: RLXError: bad pass pipeline 'builtin.module(rlx-no-such-pass)': {{.*}}'rlx-no-such-pass' does not refer to a registered pass or pass pipeline
fft = rlx.Module.parse("""
func.func @s(%x: tensor<4x12xcomplex<f32>>) -> tensor<4x12xcomplex<f32>> {
  %f = rlx.fft %x : tensor<4x12xcomplex<f32>>
  return %f : tensor<4x12xcomplex<f32>>
}""", ctx)
if "metal" in rlx.targets():
    error(lambda: fft.run_pipeline("rlx-legalize{target=metal}"))
# METAL: RLXError: pass pipeline 'builtin.module(rlx-legalize{target=metal})' failed | -:3:8: error: 'rlx.fft' is not supported by target 'metal'
error(lambda: ctx.type("tensor<4xf33>"))
# CHECK: RLXError: cannot parse type 'tensor<4xf33>'
