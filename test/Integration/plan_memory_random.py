# RUN: %python %s
"""Randomized test of --rlx-plan-memory.

Generates one module of many random DAGs of cheap MIR ops (elementwise ops
that may run in place, views that alias, transposes, matmuls, reductions,
concats, constants, parameters, fan-out, several results), plans it with
every planner through one rlx-opt run each, and checks every plan with a
checker that shares no code with the planner: it recomputes each buffer's
lifetime from the kernels that read and write it (ignoring the plan's own
start/end), then checks that no two root buffers live at the same kernel
share a byte, that aliases lie within their root, that roots are aligned
and within the arena, that the arena is at least the most bytes live at one
kernel, and, simulating the kernels in order, that every value a kernel
reads still holds the bytes its writer put there. A fresh seed each run
(printed; RLX_TEST_SEED=N repeats one).
"""

import os
import random
import re
import subprocess
import sys

RLX_OPT = os.environ.get("RLX_OPT", "rlx-opt")
SEED = int(os.environ.get("RLX_TEST_SEED") or
           int.from_bytes(os.urandom(4), "little"))
NUM_FUNCS = int(os.environ.get("RLX_PLAN_FUNCS", "1500"))
ELEM_BYTES = {"f32": 4, "f16": 2}


def ttype(shape, elem):
    return "tensor<" + "".join("%dx" % d for d in shape) + elem + ">"


class Gen:
    """One random function: a pool of values, ops that read from it."""

    def __init__(self, rnd, index):
        self.rnd = rnd
        self.index = index
        self.args = []
        self.lines = []
        self.pool = []  # (name, shape, elem)
        self.count = 0

    def fresh(self):
        self.count += 1
        return "%%v%d" % self.count

    def arg(self, shape, elem):
        name = "%%a%d" % len(self.args)
        self.args.append((name, shape, elem))
        return name

    def emit(self, text, shape, elem):
        name = self.fresh()
        self.lines.append("  %s = %s" % (name, text))
        self.pool.append((name, shape, elem))
        return name

    def pick(self, pred=lambda v: True):
        cands = [v for v in self.pool if pred(v)]
        # Prefer recent values (long chains), sometimes old ones (fan-out).
        if not cands:
            return None
        if self.rnd.random() < 0.7:
            return cands[-self.rnd.randint(1, min(3, len(cands)))]
        return self.rnd.choice(cands)

    def dim(self):
        return self.rnd.choice([1, 2, 3, 4, 5, 8, 12, 16, 24, 32])

    def step(self):
        r = self.rnd
        kind = r.choice(["unary", "unary", "binary", "binary", "transpose",
                         "reshape", "narrow", "matmul", "reduce", "concat",
                         "cast", "const", "param"])
        v = self.pick()
        name, shape, elem = v
        t = ttype(shape, elem)
        if kind == "unary":
            op = r.choice(["neg", "exp", "tanh", "abs"])
            self.emit("rlx.%s %s : %s" % (op, name, t), shape, elem)
        elif kind == "binary":
            w = self.pick(lambda u: u[1] == shape and u[2] == elem) or v
            op = r.choice(["add", "mul", "sub", "max"])
            self.emit("rlx.%s %s, %s : %s" % (op, name, w[0], t), shape, elem)
        elif kind == "transpose":
            self.emit("rlx.transpose %s [1, 0] : %s" % (name, t),
                      [shape[1], shape[0]], elem)
        elif kind == "reshape":
            n = shape[0] * shape[1]
            divs = [d for d in range(1, n + 1) if n % d == 0]
            a = r.choice(divs)
            new = [a, n // a]
            self.emit("rlx.reshape %s : %s -> %s" % (name, t, ttype(new, elem)),
                      new, elem)
        elif kind == "narrow":
            start = r.randrange(shape[0])
            length = r.randint(1, shape[0] - start)
            self.emit("rlx.narrow %s axis = 0 start = %d length = %d : %s"
                      % (name, start, length, t), [length, shape[1]], elem)
        elif kind == "matmul":
            n = self.dim()
            w = self.arg([shape[1], n], elem)
            self.emit("rlx.matmul %s, %s : %s, %s"
                      % (name, w, t, ttype([shape[1], n], elem)),
                      [shape[0], n], elem)
        elif kind == "reduce":
            self.emit("rlx.reduce sum %s axes = [1] keepdim true : %s" % (name, t),
                      [shape[0], 1], elem)
        elif kind == "concat":
            w = self.pick(lambda u: u[1][1] == shape[1] and u[2] == elem) or v
            self.emit("rlx.concat %s, %s axis = 0 : %s, %s"
                      % (name, w[0], t, ttype(w[1], elem)),
                      [shape[0] + w[1][0], shape[1]], elem)
        elif kind == "cast":
            if r.random() < 0.5:
                self.emit("rlx.cast %s : %s -> %s" % (name, t, t), shape, elem)
            else:
                self.emit("rlx.stop_gradient %s : %s" % (name, t), shape, elem)
        elif kind == "const":
            s = [self.dim(), self.dim()]
            self.emit("rlx.constant dense<0.5> : %s" % ttype(s, elem), s, elem)
        else:
            s = [self.dim(), self.dim()]
            self.emit('"rlx.param"() {name = "f%d_p%d"} : () -> %s'
                      % (self.index, self.count, ttype(s, elem)), s, elem)

    def build(self):
        r = self.rnd
        elem = r.choice(["f32", "f32", "f16"])
        for _ in range(r.randint(1, 3)):
            shape = [self.dim(), self.dim()]
            self.pool.append((self.arg(shape, elem), shape, elem))
        for _ in range(r.randint(3, 40)):
            self.step()
        made = [v for v in self.pool if v[0].startswith("%v") and
                "rlx.param" not in self.line_of(v[0])]
        if not made:
            self.step()
            self.emit("rlx.neg %s : %s" % (self.pool[-1][0],
                                          ttype(self.pool[-1][1], elem)),
                      self.pool[-1][1], elem)
            made = [self.pool[-1]]
        results = [made[-1]] + r.sample(made, min(len(made), r.randint(0, 2)))
        results = list({v[0]: v for v in results}.values())
        sig = ", ".join("%s: %s" % (n, ttype(s, e)) for n, s, e in self.args)
        rtypes = ", ".join(ttype(s, e) for _, s, e in results)
        body = "\n".join(self.lines)
        return ("func.func @f%d(%s) -> (%s) {\n%s\n  return %s : %s\n}\n"
                % (self.index, sig, rtypes, body,
                   ", ".join(n for n, _, _ in results), rtypes))

    def line_of(self, name):
        for line in self.lines:
            if line.startswith("  %s = " % name):
                return line
        return ""


# ---------------------------------------------------------------------------
# The checker: reads rlx_lir text, trusts nothing but the kernels' operands.
# ---------------------------------------------------------------------------

PLAN = re.compile(r"rlx_lir\.arena \{plan = #rlx_lir\.plan<arena_size = (\d+), "
                  r"alignment = (\d+), buffers = \[(.*)\]>")
ENTRY = re.compile(r"#rlx_lir\.buffer<id = (\d+), offset = (\d+), "
                   r"size = (\d+), start = (\d+), end = (\d+)"
                   r"(?:, root = (\d+))?>")
BUF = re.compile(r"(%\S+) = rlx_lir\.(?:buffer|alias) \S+ id (\d+) :")
KERNEL = re.compile(r"rlx_lir\.kernel \"[^\"]+\"(?: ins\(([^:]*) :[^)]*\))?"
                    r"(?: outs\(([^:]*) :[^)]*\))?")


def split_functions(text):
    funcs, cur = [], None
    for line in text.splitlines():
        m = re.match(r"\s*func\.func @(\w+)", line)
        if m:
            cur = [m.group(1), []]
            funcs.append(cur)
        elif cur is not None:
            cur[1].append(line)
    return funcs


def check_function(name, lines, failures):
    plan = None
    ids = {}
    kernels = []  # (reads, writes) as lists of ids
    for line in lines:
        m = PLAN.search(line)
        if m:
            plan = (int(m.group(1)), int(m.group(2)),
                    {int(e[0]): e for e in ENTRY.findall(m.group(3))})
            continue
        m = BUF.search(line)
        if m:
            ids[m.group(1)] = int(m.group(2))
            continue
        if "rlx_lir.kernel" in line:
            m = KERNEL.search(line)
            names = lambda g: [s.strip() for s in g.split(",")] if g else []
            kernels.append(([ids[n] for n in names(m.group(1)) if n in ids],
                            [ids[n] for n in names(m.group(2)) if n in ids]))
    def fail(msg):
        failures.append("@%s: %s" % (name, msg))
    if plan is None:
        return fail("no plan")
    arena, align, entries = plan
    info = {}
    for i, e in entries.items():
        info[i] = dict(offset=int(e[1]), size=int(e[2]),
                       root=int(e[5]) if e[5] else None)
    if set(ids.values()) != set(info):
        return fail("buffer ops %s vs plan %s" % (sorted(ids.values()),
                                                   sorted(info)))
    # Lifetimes from the kernels alone.
    first, last = {}, {}
    for k, (reads, writes) in enumerate(kernels):
        for i in reads + writes:
            root = info[i]["root"] if info[i]["root"] is not None else i
            for j in (i, root):
                first.setdefault(j, k)
                last[j] = k
    roots = [i for i in info if info[i]["root"] is None]
    for i in roots:
        b = info[i]
        if b["offset"] % align:
            fail("root %d at %d not aligned to %d" % (i, b["offset"], align))
        if b["offset"] + b["size"] > arena:
            fail("root %d ends past the arena" % i)
    for i in info:
        r = info[i]["root"]
        if r is None:
            continue
        a, b = info[i], info[r]
        if a["offset"] < b["offset"] or \
                a["offset"] + a["size"] > b["offset"] + b["size"]:
            fail("alias %d outside root %d" % (i, r))
    live = [i for i in roots if i in first]
    for x in range(len(live)):
        for y in range(x + 1, len(live)):
            i, j = live[x], live[y]
            if first[i] <= last[j] and first[j] <= last[i]:
                a, b = info[i], info[j]
                if a["size"] and b["size"] and \
                        a["offset"] < b["offset"] + b["size"] and \
                        b["offset"] < a["offset"] + a["size"]:
                    fail("roots %d and %d overlap while live" % (i, j))
    peak = 0
    for k in range(len(kernels)):
        peak = max(peak, sum(info[i]["size"] for i in live
                             if first[i] <= k <= last[i]))
    if arena < peak:
        fail("arena %d below the live peak %d" % (arena, peak))
    # Data flow: each byte's last writer; a read sees its writer's bytes.
    owner = {}
    seen = {}  # view id -> writers its bytes held at its first read
    for k, (reads, writes) in enumerate(kernels):
        for i in reads:
            b = info[i]
            held = tuple(owner.get(p) for p in range(b["offset"],
                                                     b["offset"] + b["size"]))
            written = any(i in w for _, w in kernels)
            if written:
                if any(h != i for h in held):
                    fail("kernel %d reads %d after its bytes were overwritten"
                         % (k, i))
            elif seen.setdefault(i, held) != held or None in held:
                fail("kernel %d reads view %d whose bytes changed" % (k, i))
        for i in writes:
            b = info[i]
            for p in range(b["offset"], b["offset"] + b["size"]):
                owner[p] = i
    return peak, arena


def main():
    rnd = random.Random(SEED)
    print("seed", SEED, "functions", NUM_FUNCS)
    module = "".join(Gen(rnd, i).build() for i in range(NUM_FUNCS))
    failures = []
    stats = {}
    for planner in ["greedy", "best-fit", "auto"]:
        align = rnd.choice([16, 64, 256])
        proc = subprocess.run(
            [RLX_OPT, "--rlx-plan-memory=planner=%s alignment=%d"
             % (planner, align), "-"], input=module, capture_output=True,
            text=True)
        if proc.returncode != 0:
            path = "/tmp/plan_memory_random_%d.mlir" % SEED
            open(path, "w").write(module)
            print(proc.stderr[-3000:])
            print("FAIL: rlx-opt failed (seed %d, module in %s)"
                  % (SEED, path))
            return 1
        funcs = split_functions(proc.stdout)
        assert len(funcs) == NUM_FUNCS, len(funcs)
        total_arena = total_peak = 0
        for name, lines in funcs:
            r = check_function(name, lines, failures)
            if r:
                total_peak += r[0]
                total_arena += r[1]
        stats[planner] = (align, total_arena, total_peak)
    for planner, (align, arena, peak) in stats.items():
        print("%-8s alignment %3d: sum of arenas %d, of live peaks %d "
              "(%.4fx)" % (planner, align, arena, peak,
                           arena / max(peak, 1)))
    if failures:
        print("\n".join(failures[:20]))
        print("FAIL: %d violations (seed %d)" % (len(failures), SEED))
        return 1
    print("PASS: %d functions x 3 planners" % NUM_FUNCS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
