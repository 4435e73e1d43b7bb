#!/usr/bin/python3
#===- scripts/differential.py - the same ops on the CPU and a GPU target --===#
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
#
# Runs every op of the given .mlir files on the CPU and on a GPU target on
# the same random inputs and compares the results, so that a lowering bug
# of either backend shows as a disagreement. The target is vulkan (rlx-run
# --target=vulkan; lavapipe in CI) or metal (test/Integration/Metal/Inputs/
# metal-run: the MSL run by rlx-metal-cpu-run, see docs/Metal.md).
#
# Each public function (split at `// -----` and alone in its module, as
# scripts/pipeline-sweep.py makes it) gives a case per op of its body with
# tensor results: the function returning that op's results, without the
# ops and arguments that they do not need. A case per op names the op that
# disagrees, and lets the other ops of a function compare where one has a
# dynamic shape or an element type the target lacks (the op tests mix
# them, and many return nothing). Each case is one of:
#
#   agree              every result has the CPU's shape and dtype and is
#                      within the tolerance of its element type (TOLERANCE)
#   disagree           printed with the case, the result, the largest error
#                      and where it is
#   skipped by target  the target stops at an error at an op of the case
#                      (an op it does not claim, a dtype it lacks) or at a
#                      dynamic shape
#   skipped (inputs)   no valid random inputs can be given (skip_reason)
#   failed             anything else: a crash, a timeout, an error without a
#                      location, the CPU failing
#
# Cases of KNOWN_PROBLEMS that disagree or fail print as KNOWN and count as
# known; one that no longer does prints FIXED and fails the run. It prints
# the seed, every disagreement and failure and a summary line, and exits 1
# on any disagreement, failure or FIXED.
#
#   scripts/differential.py --rlx-run=build/bin/rlx-run \
#       --rlx-opt=build/bin/rlx-opt test/Dialect/MIR/*-ops.mlir
#
#===----------------------------------------------------------------------===#

import argparse
import concurrent.futures
import dataclasses
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import zlib

import numpy as np

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
METAL_RUN = os.path.join(os.path.dirname(SCRIPTS), "test", "Integration",
                         "Metal", "Inputs", "metal-run")


def load_pipeline_sweep():
    """scripts/pipeline-sweep.py as a module: how it splits files into
    functions and which errors it takes for diagnostics."""
    spec = importlib.util.spec_from_file_location(
        "pipeline_sweep", os.path.join(SCRIPTS, "pipeline-sweep.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SWEEP = load_pipeline_sweep()

# The .npy dtype each element type travels as (bf16 as f32, as rlx-run
# reads and writes it).
NPY_DTYPES = {
    "f16": np.float16, "bf16": np.float32, "f32": np.float32,
    "f64": np.float64, "complex<f32>": np.complex64,
    "complex<f64>": np.complex128, "i1": np.bool_, "i8": np.int8,
    "i16": np.int16, "i32": np.int32, "i64": np.int64, "ui8": np.uint8,
    "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64,
}
# A float result agrees within this times the largest magnitude of the
# CPU's result: a few roundings of its element type, the order of a sum
# aside. Vulkan computes f64 arithmetic in f64 (and has no f64 math
# functions: those ops are skipped); Metal has no f64. Integers and i1
# must be equal, NaNs where the CPU has them.
TOLERANCE = {"f16": 1e-2, "bf16": 1e-2, "f32": 1e-4, "f64": 1e-9,
             "complex<f32>": 1e-4, "complex<f64>": 1e-9}

TENSOR = re.compile(r"^tensor<((?:[0-9?]+x)*)(\w+|complex<\w+>)>$")
# The size of a dynamic dimension: the GPU targets refuse dynamic shapes
# before they read inputs, and the CPU runs a case only after the target.
DYNAMIC_SIZE = 3

# The inputs, by what an op makes of them. Operands an op takes as
# indices (gather's, scatter_add's), labels (cross-entropy's), positions
# or lengths (the KV cache's) or groups (grouped_matmul's expert per row)
# are integers in [0, n), n the smallest dimension above 1 of the case's
# arguments (at most INDEX_BOUND), so within any dimension they index.
INDEX_OPERANDS = {"rlx.gather": (1,), "rlx.scatter_add": (1,),
                  "rlx.softmax_cross_entropy": (1,),
                  "rlx.softmax_cross_entropy_backward": (1,),
                  "rlx.kv_cache_write": (2,), "rlx.decode_attention": (3,),
                  "rlx.grouped_matmul": (2,)}
INDEX_BOUND = 4
# Operands that must be positive for a real result (log, sqrt, rsqrt, pow's
# base, batch norm's variance) or that are a quantization scale: |x| + 0.5.
# None: every operand.
POSITIVE_OPERANDS = {"rlx.log": None, "rlx.sqrt": None, "rlx.rsqrt": None,
                     "rlx.pow": (0,), "rlx.batch_norm_inference": (4,),
                     "rlx.fake_quantize": (1,)}
# The integer inputs of a case with one of these ops are not 0 (a divisor).
DIVIDING_OPS = {"rlx.div"}
# Other integers: small, so that no sum or product overflows, and signed
# ones negative too.
SIGNED_RANGE = (-8, 8)
UNSIGNED_RANGE = (0, 16)

# Cases that disagree or fail for a bug not fixed yet, by target: why.
VULKAN_RANK0_OFFSET = (
    "a rank-0 view at a nonzero offset (vmap over a scalar function: narrow "
    "to one element, reshape to rank 0) reads element 0: the SPIR-V access "
    "chain of a rank-0 memref drops its offset; every result element is "
    "the input's first")
VULKAN_COMPLEX_COPY = (
    "complex data movement compiles (no complex arithmetic to refuse), but "
    "rlx-vulkan-run takes no complex buffer: 'bad --arg=2xcomplex<f32>=...', "
    "where an error at the op is wanted (docs/Vulkan.md: no complex values)")
METAL_DYNAMIC = (
    "a dynamic shape ends in an error of the GPU front at the op that names "
    "neither the op nor the dynamic shape: ")
KNOWN_PROBLEMS = {
    "vulkan": {
        "autodiff-ops.mlir:@vmap_shapes_and_types#2": VULKAN_RANK0_OFFSET,
        **dict.fromkeys([
            "elementwise-ops.mlir:@where_element_types#8",
            "leaf-ops.mlir:@stop_gradient_element_types#9",
            "shape-ops.mlir:@reshape_element_types#7",
            "shape-ops.mlir:@transpose_shapes_and_types#4",
            "shape-ops.mlir:@narrow_dynamic#1",
            "shape-ops.mlir:@concat_element_types#2",
            "shape-ops.mlir:@expand_dynamic_and_types#3",
            "shape-ops.mlir:@gather_dynamic_and_types#2",
            "shape-ops.mlir:@reverse_dynamic_and_types#2",
        ], VULKAN_COMPLEX_COPY),
    },
    "metal": {
        "fused-ops.mlir:@fused_matmul_bias_act_shapes_and_types#1":
            METAL_DYNAMIC + "failed to legalize unresolved materialization "
            "from ('tensor<?x16xf32>') to ('tensor<?x?xf32>')",
        **dict.fromkeys([
            "shape-ops.mlir:@reshape_dynamic#0",
            "shape-ops.mlir:@reshape_dynamic#1",
        ], METAL_DYNAMIC + "rlx-gpu-map-linalg: host code reads or writes a "
            "device buffer"),
        "shape-ops.mlir:@reshape_dynamic#3":
            METAL_DYNAMIC + "rlx-gpu-sink-constants: a kernel reads global "
            "@__constant_2xindex, which is not constant and lives in host "
            "memory",
    },
}

#===----------------------------------------------------------------------===#
# Generic-form MLIR text
#===----------------------------------------------------------------------===#

VALUE = re.compile(r"%[\w$.]+")
OP_LINE = re.compile(
    r'^\s*(?:(%[\w$.]+)(?::(\d+))? = )?"([\w.]+)"\(([^)]*)\)')


def split_top(text, sep):
    """`text` split at each `sep` outside brackets and string literals
    (the `>` of an arrow `->` closes nothing)."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        if depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i])
            i += len(sep)
            start = i
            continue
        c = text[i]
        if c == '"':
            i += 1
            while text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif text.startswith("->", i):
            i += 1
        elif c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth -= 1
        i += 1
    parts.append(text[start:])
    return [p.strip() for p in parts]


def type_list(text):
    """The types of `(A, B)`, or of a lone type `A`."""
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    return [t for t in split_top(text, ",") if t]


def function_type(text):
    """(inputs, results) of a function type `(A, B) -> (C)`."""
    inputs, results = split_top(text, " -> ")
    return type_list(inputs), type_list(results)


@dataclasses.dataclass
class Op:
    """A top-level op of a function body in generic form."""
    name: str
    results: list  # its result values: %3, or %3#0 %3#1
    types: list  # their types
    operands: list
    lines: list

    def uses(self):
        """Every value its text names, in its regions too."""
        return set(VALUE.findall("\n".join(self.lines)))


def parse_op(lines):
    """The op of `lines`: the first is `%r = "d.op"(operands) ...`, the
    last ends with its type `(A) -> B`."""
    result, count, name, operands = OP_LINE.match(lines[0]).groups()
    last = lines[-1].strip().removeprefix("})")
    types = function_type(split_top(last, " : ")[-1])[1]
    if result is None:
        results = []
    elif count is None:
        results = [result]
    else:
        results = [f"{result}#{i}" for i in range(int(count))]
    return Op(name, results, types, split_top(operands, ","), lines)


@dataclasses.dataclass
class Function:
    """A function of a module in generic form, and the rest of it."""
    name: str
    indent: str
    properties: list  # the `key = value` of its <{...}>
    args: list  # (value, type)
    ops: list  # its top-level ops but the terminator
    before: list  # the module's lines before the function
    after: list  # from its last line, `}) {attributes} : () -> ()`, on


def parse_function(module, name):
    """The function `name` of a generic-form `module`."""
    lines = module.splitlines()
    header = re.compile(r'^(\s*)"func\.func"\(\) <\{(.*)\}> \(\{$')
    start, match = next(
        (i, m) for i, m in enumerate(map(header.match, lines))
        if m and f'sym_name = "{name}"' in m.group(2))
    indent, properties = match.groups()
    end = next(i for i in range(start, len(lines))
               if lines[i].startswith(indent + "})"))
    body = lines[start + 1:end]
    args = []
    if body[0].lstrip().startswith("^bb0("):
        label = body.pop(0).strip()[len("^bb0("):-len("):")]
        args = [tuple(split_top(arg, ": ")) for arg in split_top(label, ",")]
    ops = []
    for line in body:
        # An op starts at the body's indentation; a deeper line, a block
        # label or a region's end there belongs to the op before.
        rest = line.removeprefix(indent + "  ")
        if rest[0] not in " ^}":
            ops.append([line])
        else:
            ops[-1].append(line)
    *ops, terminator = map(parse_op, ops)
    assert terminator.name == "func.return"
    return Function(name, indent, split_top(properties, ","), args, ops,
                    lines[:start], lines[end:])


#===----------------------------------------------------------------------===#
# Cases
#===----------------------------------------------------------------------===#


@dataclasses.dataclass
class Case:
    """One op of a function, alone: the function returning its results."""
    id: str  # file:@function#N, the function's Nth op (from 0)
    function: str
    op: str
    args: list  # their types
    kinds: list  # how each argument is drawn (random_input)
    results: list  # their types
    text: str  # the module
    path: str = ""


def npy_type(type_text):
    """(shape, element type) of a tensor type that .npy files carry, else
    None."""
    match = TENSOR.match(type_text)
    if not match or match.group(2) not in NPY_DTYPES:
        return None
    shape = [DYNAMIC_SIZE if d == "?" else int(d)
             for d in match.group(1).split("x")[:-1]]
    return shape, match.group(2)


def live_ops(ops, values):
    """The ops of `ops` that `values` need, in order, and every value they
    name (%3 for %3#0)."""
    needed = {v.split("#")[0] for v in values}
    kept = []
    for op in reversed(ops):
        if any(r.split("#")[0] in needed for r in op.results):
            kept.append(op)
            needed |= op.uses()
    return kept[::-1], needed


def case_text(function, ops, args, results):
    """The module with `function` reduced to `ops`, taking `args` and
    returning `results` (value, type)."""
    fn_type = "({}) -> ({})".format(", ".join(t for _, t in args),
                                    ", ".join(t for _, t in results))
    properties = ", ".join(
        "function_type = " + fn_type if p.startswith("function_type = ")
        else p for p in function.properties)
    ind = function.indent
    lines = [f'{ind}"func.func"() <{{{properties}}}> ({{']
    if args:
        lines.append("{}^bb0({}):".format(
            ind, ", ".join(f"{v}: {t}" for v, t in args)))
    for op in ops:
        lines += op.lines
    lines.append('{}  "func.return"({}) : ({}) -> ()'.format(
        ind, ", ".join(v for v, _ in results),
        ", ".join(t for _, t in results)))
    return "\n".join(function.before + lines + function.after) + "\n"


def operands_in(ops, args, table):
    """The argument values that ops of `table` take at the operand
    positions it gives (None: every position)."""
    values = {v for v, _ in args}
    found = set()
    for op in ops:
        positions = table.get(op.name, ())
        for position, operand in enumerate(op.operands):
            if operand in values and (positions is None or
                                      position in positions):
                found.add(operand)
    return found


def input_kinds(ops, args):
    """How each argument is drawn: 'index', 'positive', 'nonzero' or
    'any'."""
    index = operands_in(ops, args, INDEX_OPERANDS)
    positive = operands_in(ops, args, POSITIVE_OPERANDS)
    divides = any(op.name in DIVIDING_OPS for op in ops)
    return ["index" if v in index else "positive" if v in positive else
            "nonzero" if divides else "any" for v, _ in args]


def function_cases(file, function):
    """A case per op of `function` with results that .npy files carry."""
    cases = []
    for index, op in enumerate(function.ops):
        results = [(v, t) for v, t in zip(op.results, op.types)
                   if npy_type(t)]
        if not results:
            continue
        ops, needed = live_ops(function.ops[:index + 1],
                               [v for v, _ in results])
        args = [(v, t) for v, t in function.args if v in needed]
        cases.append(Case(
            id=f"{os.path.basename(file)}:@{function.name}#{index}",
            function=function.name, op=op.name, args=[t for _, t in args],
            kinds=input_kinds(ops, args), results=[t for _, t in results],
            text=case_text(function, ops, args, results)))
    return cases


def generic_module(rlx_opt, chunk_path, name):
    """The module of `chunk_path` with `name` its only public function and
    what that does not use removed, in generic form."""
    pipe = f"builtin.module(symbol-privatize{{exclude={name}}},symbol-dce)"
    proc = subprocess.run([rlx_opt, chunk_path, "--pass-pipeline=" + pipe,
                           "--mlir-print-op-generic"],
                          capture_output=True, text=True, check=True)
    return proc.stdout


def collect_cases(rlx_opt, files, tmp):
    """The cases of every public function of `files`, and the number of
    functions."""
    cases, functions = [], 0
    for path, chunk_path, names in SWEEP.written_chunks(rlx_opt, files, tmp):
        for name in names:
            module = generic_module(rlx_opt, chunk_path, name)
            cases += function_cases(path, parse_function(module, name))
            functions += 1
    return cases, functions


def largest_tensor(case):
    """The number of elements of the case's largest argument or result."""
    return max(int(np.prod(npy_type(t)[0])) for t in case.args + case.results
               if npy_type(t))


#===----------------------------------------------------------------------===#
# Inputs
#===----------------------------------------------------------------------===#


def skip_reason(case):
    """Why `case` cannot be given valid random inputs, or None."""
    for t in case.args:
        if not npy_type(t):
            return f"an argument of type {t}, which .npy files do not carry"
    if "rlx.param" in case.text:
        return "rlx.param values are drawn by the runners, not given"
    return None


def round_to_bf16(x):
    """f32 values rounded to nearest even bf16 ones."""
    bits = x.view(np.uint32)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return bits.astype(np.uint32).view(np.float32)


def index_bound(case):
    """The n of index inputs in [0, n)."""
    dims = [d for t in case.args for d in npy_type(t)[0] if d > 1]
    return min(dims + [INDEX_BOUND])


def random_input(rng, type_text, kind, bound):
    """An array of the tensor type: normal floats (|x| + 0.5 where
    'positive'), integers in SIGNED_RANGE or UNSIGNED_RANGE (in [0, bound)
    where 'index', not 0 where 'nonzero'), random booleans."""
    shape, element = npy_type(type_text)
    dtype = NPY_DTYPES[element]
    if element == "i1":
        return rng.integers(0, 2, shape).astype(dtype)
    if np.issubdtype(dtype, np.integer):
        if kind == "index":
            return rng.integers(0, bound, shape).astype(dtype)
        signed = np.issubdtype(dtype, np.signedinteger)
        values = rng.integers(*(SIGNED_RANGE if signed else UNSIGNED_RANGE),
                              shape)
        if kind == "nonzero":
            values[values == 0] = 1
        return values.astype(dtype)
    values = rng.standard_normal(shape)
    if np.issubdtype(dtype, np.complexfloating):
        values = values + 1j * rng.standard_normal(shape)
    elif kind == "positive":
        values = np.abs(values) + 0.5
    values = values.astype(dtype)
    return round_to_bf16(values) if element == "bf16" else values


def write_inputs(case, seed, directory):
    """The .npy files of the case's arguments, drawn from `seed` and the
    case's id: a case draws the same inputs alone as in a sweep."""
    rng = np.random.default_rng([seed, zlib.crc32(case.id.encode())])
    bound = index_bound(case)
    paths = []
    for i, (t, kind) in enumerate(zip(case.args, case.kinds)):
        path = os.path.join(directory, f"arg{i}.npy")
        np.save(path, random_input(rng, t, kind, bound))
        paths.append(path)
    return paths


#===----------------------------------------------------------------------===#
# Runs
#===----------------------------------------------------------------------===#

# rlx-run's refusal (vulkan) and the GPU front's error at the op (metal).
DYNAMIC_SHAPE = re.compile(
    r"error: .*(static tensor shapes only|dynamic (result )?shape)")


@dataclasses.dataclass
class Outcome:
    """What became of a case."""
    kind: str  # agree, disagree, skipped by target, skipped (inputs), failed
    detail: str = ""


def run(command, case, inputs, outputs, timeout, env=None):
    """Runs the case's function with `command`: the process, or None if it
    timed out."""
    try:
        return subprocess.run(
            command + [case.path, "--entry=" + case.function] +
            ["--input=" + p for p in inputs] +
            ["--output=" + p for p in outputs],
            capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return None


def target_outcome(case, proc, rlx_opt):
    """The outcome of a target run that gave no results, else None."""
    if proc is None:
        return Outcome("failed", "timed out")
    if proc.returncode == 0:
        return None
    error = next((line for line in proc.stderr.splitlines()
                  if ": error: " in line), "")
    if proc.returncode == 1 and DYNAMIC_SHAPE.search(error):
        return Outcome("skipped by target", error)
    result = SWEEP.classify(case.path, proc)
    if result != "diagnosed":
        return Outcome("failed", result)
    # Where this script wrote an invalid case, the target's error at an op
    # is the verifier's.
    if not SWEEP.parses(rlx_opt, case.path):
        return Outcome("failed", "the case is not valid IR: " + error)
    return Outcome("skipped by target", error)


def compare(cpu, other, element):
    """None where `other` agrees with the CPU's result `cpu`, else how it
    differs."""
    if cpu.shape != other.shape or cpu.dtype != other.dtype:
        return (f"{other.dtype} {list(other.shape)} where the CPU gives "
                f"{cpu.dtype} {list(cpu.shape)}")
    wide = np.complex128 if np.iscomplexobj(cpu) else np.float64
    a, b = cpu.astype(wide), other.astype(wide)
    with np.errstate(invalid="ignore"):
        error = np.array(np.abs(b - a))  # an array at rank 0 too
    same = (a == b) | (np.isnan(a) & np.isnan(b))
    error[same] = 0
    # A NaN on one side only, or infinities that differ.
    error[np.isnan(error)] = np.inf
    if element in TOLERANCE:
        scale = max(np.abs(a[np.isfinite(a)]).max(initial=0),
                    np.finfo(cpu.dtype).tiny)
        bound = TOLERANCE[element] * scale
        limit = f"tolerance {bound:.3g} ({TOLERANCE[element]:g} x {scale:.3g})"
    else:
        error[~same] = np.maximum(error[~same], 1)
        bound, limit = 0, "exact"
    if not (error > bound).any():
        return None
    worst = np.unravel_index(np.argmax(error), error.shape)
    return (f"max error {error[worst]:.3g}, {limit}, "
            f"{np.count_nonzero(error > bound)} of {error.size} elements "
            f"beyond; at {list(map(int, worst))} the CPU gives {cpu[worst]}, "
            f"the target {other[worst]}")


def compare_outputs(case, cpu_paths, target_paths):
    """The outcome of comparing every result."""
    problems = []
    for i, (c, t, type_text) in enumerate(zip(cpu_paths, target_paths,
                                              case.results)):
        if not os.path.exists(t):
            return Outcome("failed", f"the target wrote no result #{i}")
        problem = compare(np.load(c), np.load(t), npy_type(type_text)[1])
        if problem:
            problems.append(f"result #{i} ({type_text}): {problem}")
    if problems:
        return Outcome("disagree", "\n".join(problems))
    return Outcome("agree")


def target_command(args):
    """The target's runner, with rlx-run's command line."""
    if args.target == "vulkan":
        return [args.rlx_run, "--target=vulkan"]
    return [sys.executable, args.metal_run]


def target_environment(args):
    """metal-run finds rlx-compile and rlx-metal-cpu-run in the environment
    (lit sets it), else beside rlx-run."""
    env = dict(os.environ)
    bin_dir = os.path.dirname(os.path.abspath(args.rlx_run))
    env.setdefault("RLX_COMPILE", os.path.join(bin_dir, "rlx-compile"))
    env.setdefault("RLX_METAL_CPU_RUN",
                   os.path.join(bin_dir, "rlx-metal-cpu-run"))
    return env


def run_case(case, args, seed):
    """Runs the case on the target, then, where that gave results, on the
    CPU on the same inputs, and compares."""
    reason = skip_reason(case)
    if reason:
        return Outcome("skipped (inputs)", reason)
    with tempfile.TemporaryDirectory(prefix="differential-") as d:
        inputs = write_inputs(case, seed, d)
        outputs = {side: [os.path.join(d, f"{side}{i}.npy")
                          for i in range(len(case.results))]
                   for side in ("cpu", "target")}
        proc = run(target_command(args), case, inputs, outputs["target"],
                   args.timeout, target_environment(args))
        outcome = target_outcome(case, proc, args.rlx_opt)
        if outcome:
            return outcome
        proc = run([args.rlx_run], case, inputs, outputs["cpu"],
                   args.timeout)
        if proc is None:
            return Outcome("failed", "timed out on the CPU")
        if proc.returncode != 0:
            return Outcome("failed", "on the CPU:\n" + proc.stderr[-2000:])
        return compare_outputs(case, outputs["cpu"], outputs["target"])


#===----------------------------------------------------------------------===#
# Report
#===----------------------------------------------------------------------===#

KINDS = ["agree", "disagree", "skipped by target", "skipped (inputs)",
         "failed"]


def pretty(rlx_opt, case):
    """The case's module in custom form, to print."""
    proc = subprocess.run([rlx_opt, case.path], capture_output=True,
                          text=True)
    return proc.stdout if proc.returncode == 0 else case.text


def report(cases, outcomes, args, seed):
    """Prints the disagreements, failures, known problems and the summary;
    the exit status."""
    known = KNOWN_PROBLEMS[args.target]
    counts = dict.fromkeys(KINDS + ["known"], 0)
    fixed = 0
    for case, outcome in zip(cases, outcomes):
        label = f"{case.id} ({case.op})"
        broken = outcome.kind in ("disagree", "failed")
        if case.id in known and broken:
            counts["known"] += 1
            print(f"KNOWN {outcome.kind} {label}: {known[case.id]}")
            continue
        counts[outcome.kind] += 1
        if case.id in known:
            fixed += 1
            print(f"FIXED {label}: now {outcome.kind}; remove it from "
                  f"KNOWN_PROBLEMS")
        elif broken:
            print(f"{outcome.kind.upper()} {label}: {outcome.detail}")
            print(pretty(args.rlx_opt, case))
        elif args.verbose:
            print(f"{outcome.kind} {label}" +
                  (f": {outcome.detail}" if outcome.detail else ""))
    bad = counts["disagree"] + counts["failed"] + fixed
    if bad:
        print(f"rerun with --seed={seed} or RLX_TEST_SEED={seed} "
              f"(and --filter=ID for one case)")
    print(f"differential cpu vs {args.target}: " +
          ", ".join(f"{counts[k]} {k}" for k in KINDS + ["known"]))
    return 1 if bad else 0


def main():
    parser = argparse.ArgumentParser(
        description="Runs every op of the files on the CPU and on a GPU "
        "target on the same random inputs and compares the results.")
    parser.add_argument("--rlx-run", default=os.environ.get("RLX_RUN"),
                        help="the rlx-run to run (default: $RLX_RUN)")
    parser.add_argument("--rlx-opt", default=os.environ.get("RLX_OPT"),
                        help="the rlx-opt to run (default: $RLX_OPT)")
    parser.add_argument("--target", choices=["vulkan", "metal"],
                        default="vulkan")
    parser.add_argument("--metal-run", default=METAL_RUN,
                        help="rlx-run's command line for metal")
    parser.add_argument("--seed", type=int,
                        default=os.environ.get("RLX_TEST_SEED"),
                        help="of the inputs (default: $RLX_TEST_SEED, else "
                        "a fresh one)")
    parser.add_argument("--every", type=int, default=1, metavar="N",
                        help="run every Nth case only, from the (seed mod "
                        "N)th")
    parser.add_argument("--filter", default="", metavar="REGEX",
                        help="run only the cases whose id "
                        "(file:@function#op) it matches")
    parser.add_argument("--max-elements", type=int, metavar="N",
                        help="leave out the cases with a larger argument or "
                        "result (metal's CPU runner is slow on large ones)")
    parser.add_argument("--timeout", type=float, default=300,
                        help="seconds per run")
    parser.add_argument("-j", type=int, default=os.cpu_count(),
                        help="cases run at once (default: the CPUs)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print every case's outcome")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    if not args.rlx_run or not args.rlx_opt:
        parser.error("give --rlx-run and --rlx-opt, or set RLX_RUN and "
                     "RLX_OPT")
    seed = args.seed
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    print(f"seed {seed}")

    with tempfile.TemporaryDirectory(prefix="differential-") as tmp:
        cases, functions = collect_cases(args.rlx_opt, args.files, tmp)
        print(f"{len(cases)} cases from {functions} functions")
        # Each seed runs another of the N subsets: over runs, every case.
        cases = [c for c in cases[seed % args.every::args.every]
                 if re.search(args.filter, c.id) and
                 (args.max_elements is None or
                  largest_tensor(c) <= args.max_elements)]
        print(f"running {len(cases)} of them")
        for i, case in enumerate(cases):
            case.path = os.path.join(tmp, f"case{i}.mlir")
            with open(case.path, "w") as f:
                f.write(case.text)
        with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
            outcomes = list(pool.map(lambda c: run_case(c, args, seed),
                                     cases))
        return report(cases, outcomes, args, seed)


if __name__ == "__main__":
    sys.exit(main())
