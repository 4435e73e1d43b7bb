"""The GPU benchmark's layers whose tables are constants of the program.

A BERT-style input stage adds a position table to the token embeddings and
normalizes (@embedding_ln_f32/bf16); a projection with a constant weight
follows it in @embedding_proj_f32/bf16. The tables are rlx.constant: the
generated kernel reads the position table from the kernels' module on the
device, and cuBLASLt reads the weight from the runtime's device copy of it
(rlxGpuConstant). Entries come from an integer formula, k / 64 (table)
and k / 1024 (weight) with -127 <= k <= 127, so that they are exact in f32
and bf16 alike and the program and the reference hold the same values.
`python3 constant_layers.py BATCH SEQ HIDDEN OUT` prints the MLIR functions
build.sh compiles.
"""
import struct
import sys


def table(rows, cols, salt, scale):
    """[rows][cols] floats k / scale, k in [-127, 127]."""
    return [[((r * 131 + c * 71 + (r * c + salt) % 97) % 255 - 127) / scale
             for c in range(cols)] for r in range(rows)]


def positions(seq, hidden):
    return table(seq, hidden, 0, 64)


def weight(hidden, out):
    return table(hidden, out, 5, 1024)


def hex_dense(rows, elem):
    """MLIR's hex form of a dense f32 or bf16 attribute (little-endian;
    the values are exact in bf16, so its bits are the top half of f32's)."""
    data = b"".join(struct.pack("<f", v) for row in rows for v in row)
    if elem == "bf16":
        data = b"".join(data[i + 2:i + 4] for i in range(0, len(data), 4))
    return '"0x' + data.hex().upper() + '"'


def functions(batch, seq, hidden, out):
    text = []
    for elem in ("f32", "bf16"):
        x = f"tensor<{batch}x{seq}x{hidden}x{elem}>"
        y = f"tensor<{batch}x{seq}x{out}x{elem}>"
        p = f"tensor<{seq}x{hidden}x{elem}>"
        w = f"tensor<{hidden}x{out}x{elem}>"
        v = f"tensor<{hidden}x{elem}>"
        ln = f"""  %pos = rlx.constant dense<{hex_dense(positions(seq, hidden), elem)}> : {p}
  %e = rlx.add %x, %pos : {x}, {p}
  %n = rlx.layer_norm %e, %g, %b {{epsilon = 1.0e-12 : f32}} : {x}, {v}
"""
        text.append(f"""func.func @embedding_ln_{elem}(%x: {x}, %g: {v}, %b: {v}) -> {x} {{
{ln}  return %n : {x}
}}
func.func @embedding_proj_{elem}(%x: {x}, %g: {v}, %b: {v}) -> {y} {{
{ln}  %w = rlx.constant dense<{hex_dense(weight(hidden, out), elem)}> : {w}
  %y = rlx.matmul %n, %w : {x}, {w}
  return %y : {y}
}}
""")
    return "".join(text)


if __name__ == "__main__":
    sys.stdout.write(functions(*map(int, sys.argv[1:5])))
