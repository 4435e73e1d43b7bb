// Causal attention with grouped-query heads (8 query heads, 2 key/value
// heads), in bf16: the flash-attention kernel's case on CUDA.
func.func @attention(%q: tensor<1x8x128x64xbf16>, %k: tensor<1x2x128x64xbf16>,
                     %v: tensor<1x2x128x64xbf16>) -> tensor<1x8x128x64xbf16> {
  %o = rlx.attention %q, %k, %v mask = causal
      : tensor<1x8x128x64xbf16>, tensor<1x2x128x64xbf16>, tensor<1x2x128x64xbf16>
  return %o : tensor<1x8x128x64xbf16>
}
