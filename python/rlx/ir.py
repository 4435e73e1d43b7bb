# ===- ir.py - contexts, modules, types and values ---------------------=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""Contexts, modules, types and values over MLIR's C API."""

import ctypes
import sys
import json
import os
import tempfile
import threading

from . import _capi as C

_SEVERITY = {0: "error", 1: "warning", 2: "note", 3: "remark"}


class RLXError(Exception):
    """An MLIR diagnostic (or several) as an exception. `diagnostics` holds
    (severity, location, message) tuples; str() is the text MLIR prints,
    `location: severity: message`, one per line."""

    def __init__(self, summary, diagnostics=()):
        self.diagnostics = list(diagnostics)
        lines = ["%s: %s: %s" % (loc, sev, msg) if loc else
                 "%s: %s" % (sev, msg) for sev, loc, msg in self.diagnostics]
        super().__init__("\n".join([summary] + lines) if lines else summary)


class Context:
    """An MLIRContext with upstream's and RLX's dialects and passes. The
    diagnostics it emits are collected and raised as RLXError by the
    operation that caused them."""

    _passes_registered = False
    _registration_lock = threading.Lock()

    def __init__(self):
        registry = C.lib.mlirDialectRegistryCreate()
        C.lib.mlirRegisterAllDialects(registry)
        C.lib.rlxRegisterAllDialects(registry)
        self._ctx = C.lib.mlirContextCreateWithRegistry(registry, False)
        C.lib.mlirDialectRegistryDestroy(registry)
        C.lib.mlirContextLoadAllAvailableDialects(self._ctx)
        with Context._registration_lock:
            if not Context._passes_registered:
                C.lib.mlirRegisterAllPasses()
                C.lib.rlxRegisterAllPasses()
                Context._passes_registered = True
        self._diagnostics = []
        self._handler = C.DiagnosticHandler(self._on_diagnostic)
        self._delete = C.DeleteUserData(lambda _: None)
        C.lib.mlirContextAttachDiagnosticHandler(self._ctx, self._handler,
                                                 None, self._delete)

    def _on_diagnostic(self, pointer, _):
        diagnostic = C.Diagnostic(pointer)
        self._diagnostics.append(_diagnostic_tuple(diagnostic))
        for i in range(C.lib.mlirDiagnosticGetNumNotes(diagnostic)):
            self._diagnostics.append(
                _diagnostic_tuple(C.lib.mlirDiagnosticGetNote(diagnostic, i)))
        return 1  # handled

    def take_diagnostics(self):
        diagnostics, self._diagnostics = self._diagnostics, []
        return diagnostics

    def error(self, summary):
        """An RLXError carrying the diagnostics collected since the last
        call."""
        return RLXError(summary, self.take_diagnostics())

    # At interpreter exit, objects go in no particular order (a context
    # before its modules): the process's memory is released as a whole.
    def __del__(self):
        if getattr(self, "_ctx", None) is not None and not sys.is_finalizing():
            C.lib.mlirContextDestroy(self._ctx)
            self._ctx = None

    # Types.
    def type(self, text):
        """Parses a type: `ctx.type("tensor<4x8xf32>")`."""
        t = C.lib.mlirTypeParseGet(self._ctx, C.StringRef.of(text))
        if not t.ptr:
            raise self.error("cannot parse type %r" % text)
        return Type(self, t)

    def tensor(self, shape, dtype="f32"):
        """A ranked tensor type: `ctx.tensor((4, 8), "f32")`; None or -1 is a
        dynamic dim."""
        dims = "x".join("?" if d is None or d < 0 else str(int(d))
                        for d in shape)
        return self.type("tensor<%s%s>" % (dims + "x" if dims else "",
                                           dtype))

    def attribute(self, text):
        a = C.lib.mlirAttributeParseGet(self._ctx, C.StringRef.of(text))
        if not a.ptr:
            raise self.error("cannot parse attribute %r" % text)
        return a

    def location(self, filename=None, line=0, col=0):
        if filename is None:
            return C.lib.mlirLocationUnknownGet(self._ctx)
        return C.lib.mlirLocationFileLineColGet(
            self._ctx, C.StringRef.of(filename), line, col)


def _diagnostic_tuple(diagnostic):
    severity = _SEVERITY.get(C.lib.mlirDiagnosticGetSeverity(diagnostic),
                             "error")
    message = C.collect_string(C.lib.mlirDiagnosticPrint, diagnostic).decode()
    loc = C.collect_string(C.lib.mlirLocationPrint,
                           C.lib.mlirDiagnosticGetLocation(diagnostic)).decode()
    if loc.startswith("loc(") and loc.endswith(")"):
        loc = loc[4:-1].replace('"', "")
    if loc == "unknown":
        loc = ""
    return severity, loc, message


_default_context = None


def default_context():
    """The context that functions use when none is given."""
    global _default_context
    if _default_context is None:
        _default_context = Context()
    return _default_context


class Type:
    """An MLIR type; ranked tensors expose shape and dtype."""

    def __init__(self, context, handle):
        self.context = context
        self._t = handle

    def __str__(self):
        return C.collect_string(C.lib.mlirTypePrint, self._t).decode()

    def __repr__(self):
        return "rlx.Type(%s)" % self

    def __eq__(self, other):
        return isinstance(other, Type) and C.lib.mlirTypeEqual(self._t,
                                                               other._t)

    def __hash__(self):
        return hash(str(self))

    @property
    def is_tensor(self):
        return C.lib.mlirTypeIsARankedTensor(self._t)

    @property
    def shape(self):
        """The dims of a ranked tensor; None for a dynamic one."""
        if not self.is_tensor:
            raise TypeError("%s is not a ranked tensor type" % self)
        rank = C.lib.mlirShapedTypeGetRank(self._t)
        return tuple(None if C.lib.mlirShapedTypeIsDynamicDim(self._t, i)
                     else C.lib.mlirShapedTypeGetDimSize(self._t, i)
                     for i in range(rank))

    @property
    def element_type(self):
        return Type(self.context, C.lib.mlirShapedTypeGetElementType(self._t))

    @property
    def dtype(self):
        """The element type's name: "f32", "bf16", "i64", "complex<f32>"."""
        return str(self.element_type)


class SVG(str):
    """An SVG document (a str) that notebooks draw inline."""

    def _repr_svg_(self):
        return str(self)


class HTML(str):
    """An HTML page (a str) that notebooks show inline."""

    def _repr_html_(self):
        return str(self)


class Module:
    """A builtin.module: parsed from text, or built with rlx.Function."""

    def __init__(self, context, handle):
        self.context = context
        self._m = handle

    @staticmethod
    def parse(text, context=None):
        """Parses MLIR text; a syntax or verifier error raises RLXError with
        the diagnostics (location `<string>:line:col`)."""
        context = context or default_context()
        context.take_diagnostics()
        m = C.lib.mlirModuleCreateParse(context._ctx, C.StringRef.of(text))
        if not m.ptr:
            raise context.error("cannot parse the module")
        return Module(context, m)

    @staticmethod
    def create(context=None):
        context = context or default_context()
        return Module(context, C.lib.mlirModuleCreateEmpty(
            context.location()))

    def __del__(self):
        if getattr(self, "_m", None) is not None and not sys.is_finalizing():
            C.lib.mlirModuleDestroy(self._m)
            self._m = None

    @property
    def operation(self):
        return C.lib.mlirModuleGetOperation(self._m)

    def __str__(self):
        return C.collect_string(C.lib.mlirOperationPrint,
                                self.operation).decode()

    def to_string(self, locations=False):
        flags = C.lib.mlirOpPrintingFlagsCreate()
        C.lib.mlirOpPrintingFlagsEnableDebugInfo(flags, locations, False)
        text = C.collect_string(C.lib.mlirOperationPrintWithFlags,
                                self.operation, flags)
        C.lib.mlirOpPrintingFlagsDestroy(flags)
        return text.decode()

    def bytecode(self):
        """The module as MLIR bytecode (bytes); Module.parse reads it back."""
        return C.collect_string(C.lib.mlirOperationWriteBytecode,
                                self.operation)

    @staticmethod
    def parse_bytecode(data, context=None):
        context = context or default_context()
        context.take_diagnostics()
        m = C.lib.mlirModuleCreateParse(context._ctx,
                                        C.StringRef.of(bytes(data)))
        if not m.ptr:
            raise context.error("cannot read the bytecode")
        return Module(context, m)

    def clone(self):
        op = C.lib.mlirOperationClone(self.operation)
        return Module(self.context, C.lib.mlirModuleFromOperation(op))

    def _function_attribute(self, name, attribute):
        """Function @name's attribute `attribute` (null if it has none); an
        error if the module has no function @name."""
        table = C.lib.mlirSymbolTableCreate(self.operation)
        try:
            op = C.lib.mlirSymbolTableLookup(table, C.StringRef.of(name))
        finally:
            C.lib.mlirSymbolTableDestroy(table)
        function_type = (C.lib.mlirOperationGetAttributeByName(
            op, C.StringRef.of("function_type")) if op.ptr else None)
        if function_type is None or not function_type.ptr:
            raise RLXError("the module has no function @%s" % name)
        return C.lib.mlirOperationGetAttributeByName(
            op, C.StringRef.of(attribute))

    def function_type(self, name):
        """The (argument types, result types) of function @name."""
        t = C.lib.mlirTypeAttrGetValue(
            self._function_attribute(name, "function_type"))
        return ([Type(self.context, C.lib.mlirFunctionTypeGetInput(t, i))
                 for i in range(C.lib.mlirFunctionTypeGetNumInputs(t))],
                [Type(self.context, C.lib.mlirFunctionTypeGetResult(t, i))
                 for i in range(C.lib.mlirFunctionTypeGetNumResults(t))])

    def result_arguments(self, name):
        """Per result of function @name, the index of the argument marked
        `rlx.in_place_result` with it (the argument that holds the result
        in place), or None."""
        held = [None] * len(self.function_type(name)[1])
        attrs = self._function_attribute(name, "arg_attrs")
        count = C.lib.mlirArrayAttrGetNumElements(attrs) if attrs.ptr else 0
        for i in range(count):
            entry = C.lib.mlirDictionaryAttrGetElementByName(
                C.lib.mlirArrayAttrGetElement(attrs, i),
                C.StringRef.of("rlx.in_place_result"))
            if entry.ptr:
                j = C.lib.mlirIntegerAttrGetValueInt(entry)
                if not 0 <= j < len(held) or held[j] is not None:
                    raise RLXError("@%s: argument #%d's rlx.in_place_result "
                                   "%d is not a result of its own" %
                                   (name, i, j))
                held[j] = i
        return held

    def verify(self):
        self.context.take_diagnostics()
        if not C.lib.mlirOperationVerify(self.operation):
            raise self.context.error("the module does not verify")

    def run_pipeline(self, pipeline):
        """Runs a pass pipeline on the module in place:
        `m.run_pipeline("rlx-optimize{target=cpu}")` (nested in
        builtin.module(...) unless it names its anchor). An unknown pass, a
        bad option or a failing pass raises RLXError with the
        diagnostics."""
        if not pipeline.startswith("builtin.module("):
            pipeline = "builtin.module(%s)" % pipeline
        self.context.take_diagnostics()
        pm = C.lib.mlirPassManagerCreate(self.context._ctx)
        try:
            opm = C.lib.mlirPassManagerGetAsOpPassManager(pm)
            errors = []
            cb = C.StringCallback(lambda s, _: errors.append(s.str()))
            if not C.lib.mlirParsePassPipeline(
                    opm, C.StringRef.of(pipeline), cb, None).value:
                raise RLXError("bad pass pipeline %r: %s" %
                               (pipeline, "".join(errors).strip()))
            if not C.lib.mlirPassManagerRunOnOp(pm, self.operation).value:
                raise self.context.error("pass pipeline %r failed" % pipeline)
        finally:
            C.lib.mlirPassManagerDestroy(pm)
        return self

    def _report(self, pass_name, options, format="json"):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "report." + format)
            self.clone().run_pipeline("%s{%s format=%s output=%s}" %
                                      (pass_name, options, format, path))
            with open(path) as f:
                return f.read()

    def fusion_report(self, target="", format="json"):
        """What --rlx-fusion-report finds (on a copy; the module is not
        changed). `format="json"` (the default): a dict with ops_before,
        ops_after, fusions, near_misses and families_off; "text": the
        report as printed; "dot": the op graph before and after fusion as
        Graphviz DOT text; "svg": that graph laid out by Graphviz's `dot`
        (an `SVG` string, shown inline in a notebook; RLXError where `dot`
        is not installed)."""
        if format not in ("json", "text", "dot", "svg"):
            raise RLXError("unknown fusion report format %r; expected json, "
                           "text, dot or svg" % (format,))
        text = self._report("rlx-fusion-report",
                            "target=%s" % target if target else "", format)
        if format == "svg":
            return SVG(text)
        if format == "json":
            return json.loads(text)
        return text

    def memory_report(self, planner="greedy", format="json"):
        """What --rlx-memory-report finds. `format="json"` (the default):
        one dict per function (arena, lower_bound, buffers, ...);
        "text": the report as printed; "svg" / "html": the plans drawn
        (an `SVG` / `HTML` string, shown inline in a notebook)."""
        if format not in ("json", "text", "svg", "html"):
            raise RLXError("unknown memory report format %r; expected json, "
                           "text, svg or html" % (format,))
        text = self._report("rlx-memory-report", "planner=%s" % planner,
                            format)
        if format == "svg":
            return SVG(text)
        if format == "html":
            return HTML(text)
        if format == "text":
            return text
        return [json.loads(line) for line in text.splitlines() if line]
