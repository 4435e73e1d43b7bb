# RUN: env RLX_RUN=%S/Inputs/metal-run %python %S/../bf16_npy.py
# bf16 through .npy files, from ../bf16_npy.py, through rlx-metal-cpu-run:
# NaN, infinities and the rounding boundaries, against a reference computed
# from the values.
