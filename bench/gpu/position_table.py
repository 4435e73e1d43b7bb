"""The constant position table of the GPU benchmark's embedding layer.

A BERT-style input stage adds a position table to the token embeddings;
here the table is a constant of the compiled program (rlx.constant, read by
the generated kernel from the kernels' module). Its entries come from an
integer formula, k / 64 with -127 <= k <= 127, so that they are exact in
f32 and bf16 alike and both the program and the reference hold the same
values. `python3 position_table.py SEQ HIDDEN` prints the MLIR functions
build.sh compiles (f32 and bf16).
"""
import struct
import sys


def table(seq, hidden):
    """[seq][hidden] rows of floats."""
    return [[((s * 131 + h * 71 + (s * h) % 97) % 255 - 127) / 64
             for h in range(hidden)] for s in range(seq)]


def hex_dense(rows, elem):
    """MLIR's hex form of a dense f32 or bf16 attribute (little-endian;
    the values are exact in bf16, so its bits are the top half of f32's)."""
    data = b"".join(struct.pack("<f", v) for row in rows for v in row)
    if elem == "bf16":
        data = b"".join(data[i + 2:i + 4] for i in range(0, len(data), 4))
    return '"0x' + data.hex().upper() + '"'


def functions(batch, seq, hidden):
    out = []
    for elem in ("f32", "bf16"):
        x = f"tensor<{batch}x{seq}x{hidden}x{elem}>"
        p = f"tensor<{seq}x{hidden}x{elem}>"
        v = f"tensor<{hidden}x{elem}>"
        out.append(f"""func.func @embedding_ln_{elem}(%x: {x}, %g: {v}, %b: {v}) -> {x} {{
  %pos = rlx.constant dense<{hex_dense(table(seq, hidden), elem)}> : {p}
  %e = rlx.add %x, %pos : {x}, {p}
  %y = rlx.layer_norm %e, %g, %b {{epsilon = 1.0e-12 : f32}} : {x}, {v}
  return %y : {x}
}}
""")
    return "".join(out)


if __name__ == "__main__":
    batch, seq, hidden = map(int, sys.argv[1:4])
    sys.stdout.write(functions(batch, seq, hidden))
