# RUN: %python %s | FileCheck %s --check-prefixes=CHECK,%if graphviz %{SVG%} %else %{NODOT%}
# The fusion report as a picture from Python: format="dot" is the DOT
# text, format="svg" the SVG Graphviz lays out from it (an rlx.SVG that a
# notebook draws inline), with one cluster per fusion made.
import shutil
import xml.etree.ElementTree as ET

import rlx
import rlx.ir

ctx = rlx.Context()
m = rlx.Module.parse("""
func.func @mlp(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>,
               %w2: tensor<16x8xf32>, %b2: tensor<8xf32>) -> tensor<4x8xf32> {
  %m = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x16xf32>
  %a = rlx.add %m, %b : tensor<4x16xf32>, tensor<16xf32>
  %g = rlx.gelu %a : tensor<4x16xf32>
  %m2 = rlx.matmul %g, %w2 : tensor<4x16xf32>, tensor<16x8xf32>
  %a2 = rlx.add %m2, %b2 : tensor<4x8xf32>, tensor<8xf32>
  return %a2 : tensor<4x8xf32>
}
func.func @miss(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %m = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x16xf32>
  %a = rlx.add %m, %b : tensor<4x16xf32>, tensor<16xf32>
  %g = rlx.gelu %a : tensor<4x16xf32>
  return %g, %a : tensor<4x16xf32>, tensor<4x16xf32>
}
""", ctx)
before = str(m)
report = m.fusion_report()
fusions = len(report["fusions"])
print("fusions:", fusions, "near misses:", len(report["near_misses"]))
# CHECK: fusions: 3 near misses: 1

dot = m.fusion_report(format="dot")
assert dot.startswith('digraph "rlx fusion report" {'), dot[:80]
print("dot clusters:", dot.count("subgraph cluster_fusion_"), "of", fusions)
# CHECK: dot clusters: 3 of 3
assert 'class="near-miss", style=dashed' in dot
assert m.fusion_report(format="text").startswith("rlx fusion report")
assert str(m) == before, "the reports run on a copy"

if shutil.which("dot"):
    svg = m.fusion_report(format="svg")
    assert isinstance(svg, rlx.SVG) and rlx.SVG is rlx.ir.SVG and svg._repr_svg_() == str(svg)
    root = ET.fromstring(svg)
    SVG = "{http://www.w3.org/2000/svg}"
    assert root.tag == SVG + "svg", root.tag
    clusters = [g for g in root.iter(SVG + "g")
                if g.get("class", "").split() == ["cluster", "fusion"]]
    print("svg fusion clusters:", len(clusters), "of", fusions)
    print("titles:", sorted(g.find(SVG + "title").text for g in clusters))
    near = [g for g in root.iter(SVG + "g")
            if g.find(SVG + "title") is not None and
            g.find(SVG + "title").text.startswith("miss0->")]
    print("near-miss edges:", len(near))
else:
    try:
        m.fusion_report(format="svg")
        raise AssertionError("format='svg' without Graphviz")
    except rlx.RLXError as e:
        print("RLXError:", str(e).replace("\n", " | "))
# SVG: svg fusion clusters: 3 of 3
# SVG-NEXT: titles: ['cluster_fusion_0', 'cluster_fusion_1', 'cluster_fusion_2']
# SVG-NEXT: near-miss edges: 1
# NODOT: RLXError: {{.*}}install graphviz

try:
    m.fusion_report(format="png")
    raise AssertionError("format='png'")
except rlx.RLXError as e:
    print("RLXError:", e)
# CHECK: RLXError: unknown fusion report format 'png'; expected json, text, dot or svg
