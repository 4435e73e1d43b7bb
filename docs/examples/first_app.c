// Calls the entry point that `rlx-compile` makes for docs/examples/first.mlir.
#include "first.h"

#include <stdio.h>
#include <stdlib.h>

int main(void) {
  static float x[4][16], w[16][16], b[16], g[16];
  for (int i = 0; i < 16; ++i) {
    for (int r = 0; r < 4; ++r)
      x[r][i] = (float)(r - i) / 16;
    for (int j = 0; j < 16; ++j)
      w[i][j] = (i == j) ? 1.0f : 0.0f;
    b[i] = 0.0f;
    g[i] = 1.0f;
  }
  // Memref descriptors: allocated, aligned, offset, sizes, strides.
  rlx_memref_f32_2d mx = {&x[0][0], &x[0][0], 0, {4, 16}, {16, 1}};
  rlx_memref_f32_2d mw = {&w[0][0], &w[0][0], 0, {16, 16}, {16, 1}};
  rlx_memref_f32_1d mb = {b, b, 0, {16}, {1}};
  rlx_memref_f32_1d mg = {g, g, 0, {16}, {1}};
  rlx_memref_f32_2d y;
  _mlir_ciface_layer(&y, &mx, &mw, &mb, &mg);
  const float *row = y.aligned + y.offset;
  printf("y[0][:4] = %.4f %.4f %.4f %.4f\n", row[0], row[1], row[2], row[3]);
  free(y.allocated); // the program allocated the result
  return 0;
}
