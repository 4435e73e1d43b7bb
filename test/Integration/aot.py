# RUN: %python %s
# UNSUPPORTED: sanitizers
# (links librlx_cpu_runtime into a C program built with gcc, which has no
# sanitizer runtime)
# rlx-compile: an RLX program compiled ahead of time to an object file and
# a C header, linked with the RLX CPU runtime into a C program that calls
# the plain C entry points (_mlir_ciface_NAME on memref descriptors), run
# on fresh random inputs and compared with NumPy in float64. Covers one
# result, several results (a struct of descriptors), an i64 argument, a
# rank-0 result, an argument that holds a result in place (a KV cache
# written at a position: the cache is updated, the other result returned
# alone), generated and --blas matmuls, and a bad type for --header.

import os
import subprocess
import sys
import tempfile

import numpy as np

import rlxtest

COMPILE = os.environ.get("RLX_COMPILE", "rlx-compile")
LIB_DIR = os.environ.get("RLX_LIB_DIR", "")
MLIR_LIB_DIR = os.environ.get("MLIR_LIB_DIR", "/usr/lib/llvm-22/lib")

suite = rlxtest.Suite("aot", [])
r = rlxtest.rng()

PROGRAM = """
func.func @layer(%x: tensor<16x64xf32>, %w: tensor<64x32xf32>,
                 %b: tensor<32xf32>) -> tensor<16x32xf32> {
  %h = rlx.matmul %x, %w : tensor<16x64xf32>, tensor<64x32xf32>
  %y = rlx.add %h, %b : tensor<16x32xf32>, tensor<32xf32>
  %g = rlx.gelu %y : tensor<16x32xf32>
  return %g : tensor<16x32xf32>
}

func.func @stats(%x: tensor<5x7xf64>, %i: tensor<3xi64>)
    -> (tensor<5xf64>, tensor<f64>, tensor<3x7xf64>) {
  %s = rlx.softmax %x axis = -1 : tensor<5x7xf64>
  %m = rlx.reduce max %s axes = [1] : tensor<5x7xf64>
  %t = rlx.reduce sum %x axes = [0, 1] : tensor<5x7xf64>
  %g = rlx.gather %x, %i axis = 0 : tensor<5x7xf64>, tensor<3xi64>
  return %m, %t, %g : tensor<5xf64>, tensor<f64>, tensor<3x7xf64>
}

func.func @step(%cache: tensor<1x8x2x4xf32> {rlx.in_place_result = 0 : i64},
                %new: tensor<1x1x2x4xf32>, %pos: tensor<i64>)
    -> (tensor<1x8x2x4xf32>, tensor<1x1x2x4xf32>) {
  %c = rlx.kv_cache_write %cache, %new, %pos : tensor<1x8x2x4xf32>, tensor<1x1x2x4xf32>, tensor<i64>
  %e = rlx.exp %new : tensor<1x1x2x4xf32>
  return %c, %e : tensor<1x8x2x4xf32>, tensor<1x1x2x4xf32>
}
"""

DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
#include "prog.h"

static void *load(const char *path, size_t bytes) {
  void *p = malloc(bytes);
  FILE *f = fopen(path, "rb");
  if (!f || fread(p, 1, bytes, f) != bytes) { perror(path); exit(2); }
  fclose(f);
  return p;
}

static void save(const char *path, const void *p, size_t bytes) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(p, 1, bytes, f) != bytes) { perror(path); exit(2); }
  fclose(f);
}

int main(void) {
  float *x = load("x.bin", 16 * 64 * 4), *w = load("w.bin", 64 * 32 * 4);
  float *b = load("b.bin", 32 * 4);
  rlx_memref_f32_2d mx = {x, x, 0, {16, 64}, {64, 1}};
  rlx_memref_f32_2d mw = {w, w, 0, {64, 32}, {32, 1}};
  rlx_memref_f32_1d mb = {b, b, 0, {32}, {1}};
  rlx_memref_f32_2d y;
  _mlir_ciface_layer(&y, &mx, &mw, &mb);
  if (y.sizes[0] != 16 || y.sizes[1] != 32 || y.strides[1] != 1) return 3;
  save("y.bin", y.aligned + y.offset, 16 * 32 * 4);
  free(y.allocated);

  double *s = load("s.bin", 5 * 7 * 8);
  int64_t *i = load("i.bin", 3 * 8);
  rlx_memref_f64_2d ms = {s, s, 0, {5, 7}, {7, 1}};
  rlx_memref_i64_1d mi = {i, i, 0, {3}, {1}};
  stats_results out;
  _mlir_ciface_stats(&out, &ms, &mi);
  save("m.bin", out.r0.aligned + out.r0.offset, 5 * 8);
  save("t.bin", out.r1.aligned + out.r1.offset, 8);
  save("g.bin", out.r2.aligned + out.r2.offset, 3 * 7 * 8);
  free(out.r0.allocated);
  free(out.r1.allocated);
  free(out.r2.allocated);

  float *cache = load("c.bin", 64 * 4), *row = load("n.bin", 8 * 4);
  int64_t pos = 5;
  rlx_memref_f32_4d mc = {cache, cache, 0, {1, 8, 2, 4}, {64, 8, 4, 1}};
  rlx_memref_f32_4d mn = {row, row, 0, {1, 1, 2, 4}, {8, 8, 4, 1}};
  rlx_memref_i64_0d mp = {&pos, &pos, 0};
  rlx_memref_f32_4d e;  /* the cache is not returned: it is written */
  _mlir_ciface_step(&e, &mc, &mn, &mp);
  save("c_out.bin", cache, 64 * 4);
  save("e.bin", e.aligned + e.offset, 8 * 4);
  free(e.allocated);
  return 0;
}
"""


def gelu(v):
    from math import erf, sqrt
    return 0.5 * v * (1 + np.vectorize(erf)(v / sqrt(2)))


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    assert p.returncode == 0, "%s exited with %d:\n%s" % (
        cmd[0], p.returncode, p.stdout + p.stderr)


def build_and_run(d, flags):
    with open(os.path.join(d, "prog.mlir"), "w") as f:
        f.write(PROGRAM)
    with open(os.path.join(d, "driver.c"), "w") as f:
        f.write(DRIVER)
    run([COMPILE, "prog.mlir", "-o", "prog.o", "--header=prog.h"] + flags, d)
    run(["gcc", "-std=c11", "-Wall", "-Werror", "driver.c",
                    "prog.o", "-L" + LIB_DIR, "-lrlx_cpu_runtime",
                    "-L" + MLIR_LIB_DIR, "-lmlir_c_runner_utils",
                    "-Wl,-rpath," + LIB_DIR + ":" + MLIR_LIB_DIR, "-lm",
                    "-o", "driver"], d)
    x = r.standard_normal((16, 64)).astype(np.float32)
    w = r.standard_normal((64, 32)).astype(np.float32)
    b = r.standard_normal(32).astype(np.float32)
    s = r.standard_normal((5, 7))
    i = r.integers(0, 5, 3).astype(np.int64)
    c = r.standard_normal((1, 8, 2, 4)).astype(np.float32)
    n = r.standard_normal((1, 1, 2, 4)).astype(np.float32)
    for name, a in [("x", x), ("w", w), ("b", b), ("s", s), ("i", i),
                    ("c", c), ("n", n)]:
        a.tofile(os.path.join(d, name + ".bin"))
    run(["./driver"], d)
    got = lambda n, t, shape: np.fromfile(os.path.join(d, n + ".bin"),
                                          t).reshape(shape)
    ref_y = gelu(x.astype(np.float64) @ w + b)
    rlxtest.assert_close(got("y", np.float32, (16, 32)), ref_y, 1e-5, 1e-5,
                         "layer", dtype=np.float32)
    e = np.exp(s - s.max(1, keepdims=True))
    rlxtest.assert_close(got("m", np.float64, (5,)),
                         (e / e.sum(1, keepdims=True)).max(1), 1e-12, 1e-14,
                         "stats max of softmax")
    rlxtest.assert_close(got("t", np.float64, ()), s.sum(), 1e-12, 1e-12,
                         "stats sum")
    rlxtest.assert_close(got("g", np.float64, (3, 7)), s[i], 0, 0,
                         "stats gather")
    ref_c = c.copy()
    ref_c[:, 5:6] = n
    rlxtest.assert_close(got("c_out", np.float32, (1, 8, 2, 4)), ref_c, 0, 0,
                         "step cache written in place")
    rlxtest.assert_close(got("e", np.float32, (1, 1, 2, 4)),
                         np.exp(n.astype(np.float64)), 1e-6, 1e-6,
                         "step result", dtype=np.float32)


def check(flags):
    with tempfile.TemporaryDirectory(prefix="rlx-aot-") as d:
        build_and_run(d, flags)


def bad_header_type():
    with tempfile.TemporaryDirectory(prefix="rlx-aot-") as d:
        src = os.path.join(d, "bad.mlir")
        with open(src, "w") as f:
            f.write("func.func @f(%x: tensor<4xi4>) -> tensor<4xi4> {\n"
                    "  return %x : tensor<4xi4>\n}\n")
        p = subprocess.run([COMPILE, src, "-o", os.path.join(d, "bad.o"),
                            "--header=" + os.path.join(d, "bad.h")],
                           capture_output=True, text=True)
        assert p.returncode != 0, "rlx-compile accepted tensor<4xi4>"
        assert "cannot spell type 'tensor<4xi4>' in C" in p.stderr, p.stderr


suite.check("aot/generated", lambda: check([]))
suite.check("aot/blas", lambda: check(["--blas"]))
suite.check("aot/bad_header_type", bad_header_type)
suite.finish()
