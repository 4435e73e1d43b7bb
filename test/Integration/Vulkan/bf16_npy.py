# RUN: env RLX_RUN=%S/Inputs/vulkan-run %python %S/../bf16_npy.py
# bf16 through .npy files, from ../bf16_npy.py, through rlx-vulkan-run
# (lavapipe in CI): NaN, infinities and the rounding boundaries, against a
# reference computed from the values.
