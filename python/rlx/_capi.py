# ===- _capi.py - ctypes declarations of the C API used by rlx ---------=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""The functions of librlx_c.so (RLX's C API) and librlx_mlir_c.so
(upstream MLIR's C API) that the package calls, declared for ctypes.

ctypes over the C API, not a compiled extension: Debian's MLIR has no
Python bindings and no nanobind, the C API is the stable boundary that
RLX exports anyway, and a pure-Python package needs no build per Python
version. The library is found through $RLX_LIB_DIR or the folder recorded
at build/install time (_config.py).
"""

import ctypes
import os

from . import _config

# Handles: every MLIR C API handle is a struct holding one pointer.
_HANDLES = ["Context", "DialectRegistry", "Location", "Module", "Operation",
            "Value", "Type", "Attribute", "Block", "Region", "Identifier",
            "PassManager", "OpPassManager", "Diagnostic", "OpPrintingFlags",
            "CpuProgram", "SymbolTable"]


class StringRef(ctypes.Structure):
    # A void pointer, not c_char_p: c_char_p reads stop at the first NUL,
    # and bytecode is full of them.
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]

    @staticmethod
    def of(text):
        """A StringRef to a copy of `text` (str or bytes) that lives as long
        as the StringRef."""
        data = text.encode() if isinstance(text, str) else bytes(text)
        buffer = ctypes.create_string_buffer(data, len(data))
        ref = StringRef(ctypes.cast(buffer, ctypes.c_void_p), len(data))
        ref._buffer = buffer
        return ref

    def bytes(self):
        return ctypes.string_at(self.data, self.length) if self.length else b""

    def str(self):
        return self.bytes().decode()


class LogicalResult(ctypes.Structure):
    _fields_ = [("value", ctypes.c_int8)]


def _handle(name):
    return type(name, (ctypes.Structure,), {"_fields_": [("ptr", ctypes.c_void_p)]})


for _name in _HANDLES:
    globals()[_name] = _handle(_name)


class NamedAttribute(ctypes.Structure):
    _fields_ = [("name", Identifier), ("attribute", Attribute)]


class OperationState(ctypes.Structure):
    _fields_ = [("name", StringRef), ("location", Location),
                ("nResults", ctypes.c_ssize_t),
                ("results", ctypes.POINTER(Type)),
                ("nOperands", ctypes.c_ssize_t),
                ("operands", ctypes.POINTER(Value)),
                ("nRegions", ctypes.c_ssize_t),
                ("regions", ctypes.POINTER(Region)),
                ("nSuccessors", ctypes.c_ssize_t),
                ("successors", ctypes.POINTER(Block)),
                ("nAttributes", ctypes.c_ssize_t),
                ("attributes", ctypes.POINTER(NamedAttribute)),
                ("enableResultTypeInference", ctypes.c_bool)]


class Tensor(ctypes.Structure):
    """RlxTensor: a row-major tensor in the caller's memory."""
    _fields_ = [("data", ctypes.c_void_p), ("rank", ctypes.c_ssize_t),
                ("shape", ctypes.POINTER(ctypes.c_int64))]


StringCallback = ctypes.CFUNCTYPE(None, StringRef, ctypes.c_void_p)
# ctypes callbacks cannot return structures: MlirLogicalResult (one int8)
# and MlirDiagnostic (one pointer) travel in registers as their one field
# does (x86-64 and AArch64 calling conventions).
DiagnosticHandler = ctypes.CFUNCTYPE(ctypes.c_int8, ctypes.c_void_p,
                                     ctypes.c_void_p)
DeleteUserData = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
ResultDestination = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_ssize_t,
                                     ctypes.c_ssize_t,
                                     ctypes.POINTER(ctypes.c_int64),
                                     ctypes.c_void_p)


def _load():
    folder = os.environ.get("RLX_LIB_DIR") or _config.LIB_DIR
    path = os.path.join(folder, "librlx_c.so")
    try:
        # RTLD_GLOBAL: the JIT'd programs resolve librlx_cpu_runtime's and
        # MLIR's symbols through the process.
        return ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
    except OSError as e:
        raise ImportError("rlx: cannot load %s (set RLX_LIB_DIR to the folder "
                          "of librlx_c.so): %s" % (path, e)) from None


lib = _load()

_i = ctypes.c_ssize_t
_b = ctypes.c_bool
_v = ctypes.c_void_p
_SIGNATURES = {
    # Context, registration, diagnostics.
    "mlirDialectRegistryCreate": (DialectRegistry,),
    "mlirDialectRegistryDestroy": (None, DialectRegistry),
    "mlirRegisterAllDialects": (None, DialectRegistry),
    "rlxRegisterAllDialects": (None, DialectRegistry),
    "mlirRegisterAllPasses": (None,),
    "rlxRegisterAllPasses": (None,),
    "rlxGetNumTargets": (_i,),
    "rlxGetTargetName": (StringRef, _i),
    "rlxGetTargetSummary": (StringRef, StringRef),
    "rlxTargetClaimsOp": (_b, StringRef, StringRef),
    "mlirContextCreateWithRegistry": (Context, DialectRegistry, _b),
    "mlirContextDestroy": (None, Context),
    "mlirContextLoadAllAvailableDialects": (None, Context),
    "mlirContextAttachDiagnosticHandler": (ctypes.c_uint64, Context,
                                           DiagnosticHandler, _v,
                                           DeleteUserData),
    "mlirDiagnosticPrint": (None, Diagnostic, StringCallback, _v),
    "mlirDiagnosticGetLocation": (Location, Diagnostic),
    "mlirDiagnosticGetSeverity": (ctypes.c_int, Diagnostic),
    "mlirDiagnosticGetNumNotes": (_i, Diagnostic),
    "mlirDiagnosticGetNote": (Diagnostic, Diagnostic, _i),
    "mlirLocationPrint": (None, Location, StringCallback, _v),
    "mlirLocationUnknownGet": (Location, Context),
    "mlirLocationFileLineColGet": (Location, Context, StringRef,
                                   ctypes.c_uint, ctypes.c_uint),
    # Modules and operations.
    "mlirModuleCreateParse": (Module, Context, StringRef),
    "mlirModuleCreateEmpty": (Module, Location),
    "mlirModuleGetOperation": (Operation, Module),
    "mlirModuleGetBody": (Block, Module),
    "mlirModuleFromOperation": (Module, Operation),
    "mlirModuleDestroy": (None, Module),
    "mlirOperationClone": (Operation, Operation),
    "mlirOperationPrint": (None, Operation, StringCallback, _v),
    "mlirOperationPrintWithFlags": (None, Operation, OpPrintingFlags,
                                    StringCallback, _v),
    "mlirOpPrintingFlagsCreate": (OpPrintingFlags,),
    "mlirOpPrintingFlagsDestroy": (None, OpPrintingFlags),
    "mlirOpPrintingFlagsEnableDebugInfo": (None, OpPrintingFlags, _b, _b),
    "mlirOperationWriteBytecode": (None, Operation, StringCallback, _v),
    "mlirOperationVerify": (_b, Operation),
    "mlirOperationGetNumResults": (_i, Operation),
    "mlirOperationGetResult": (Value, Operation, _i),
    "mlirOperationGetFirstRegion": (Region, Operation),
    "mlirOperationGetAttributeByName": (Attribute, Operation, StringRef),
    "mlirOperationStateGet": (OperationState, StringRef, Location),
    "mlirOperationStateAddResults": (None, ctypes.POINTER(OperationState), _i,
                                     ctypes.POINTER(Type)),
    "mlirOperationStateAddOperands": (None, ctypes.POINTER(OperationState),
                                      _i, ctypes.POINTER(Value)),
    "mlirOperationStateAddOwnedRegions": (None,
                                          ctypes.POINTER(OperationState), _i,
                                          ctypes.POINTER(Region)),
    "mlirOperationStateAddAttributes": (None, ctypes.POINTER(OperationState),
                                        _i, ctypes.POINTER(NamedAttribute)),
    "mlirOperationStateEnableResultTypeInference": (
        None, ctypes.POINTER(OperationState)),
    "mlirOperationCreate": (Operation, ctypes.POINTER(OperationState)),
    "mlirOperationDestroy": (None, Operation),
    "mlirRegionCreate": (Region,),
    "mlirRegionAppendOwnedBlock": (None, Region, Block),
    "mlirRegionGetFirstBlock": (Block, Region),
    "mlirBlockCreate": (Block, _i, ctypes.POINTER(Type),
                        ctypes.POINTER(Location)),
    "mlirBlockGetArgument": (Value, Block, _i),
    "mlirBlockGetNumArguments": (_i, Block),
    "mlirBlockAppendOwnedOperation": (None, Block, Operation),
    "mlirBlockDestroy": (None, Block),
    "mlirValueGetType": (Type, Value),
    # Types and attributes.
    "mlirTypeParseGet": (Type, Context, StringRef),
    "mlirTypePrint": (None, Type, StringCallback, _v),
    "mlirTypeEqual": (_b, Type, Type),
    "mlirTypeIsARankedTensor": (_b, Type),
    "mlirShapedTypeGetElementType": (Type, Type),
    "mlirShapedTypeGetRank": (ctypes.c_int64, Type),
    "mlirShapedTypeGetDimSize": (ctypes.c_int64, Type, _i),
    "mlirShapedTypeIsDynamicDim": (_b, Type, _i),
    "mlirFunctionTypeGet": (Type, Context, _i, ctypes.POINTER(Type), _i,
                            ctypes.POINTER(Type)),
    "mlirFunctionTypeGetNumInputs": (_i, Type),
    "mlirFunctionTypeGetInput": (Type, Type, _i),
    "mlirFunctionTypeGetNumResults": (_i, Type),
    "mlirFunctionTypeGetResult": (Type, Type, _i),
    "mlirTypeAttrGet": (Attribute, Type),
    "mlirTypeAttrGetValue": (Type, Attribute),
    "mlirStringAttrGet": (Attribute, Context, StringRef),
    "mlirArrayAttrGetNumElements": (_i, Attribute),
    "mlirArrayAttrGetElement": (Attribute, Attribute, _i),
    "mlirDictionaryAttrGetElementByName": (Attribute, Attribute, StringRef),
    "mlirIntegerAttrGetValueInt": (ctypes.c_int64, Attribute),
    "mlirAttributeParseGet": (Attribute, Context, StringRef),
    "mlirAttributePrint": (None, Attribute, StringCallback, _v),
    "mlirDenseElementsAttrRawBufferGet": (Attribute, Type, ctypes.c_size_t,
                                          _v),
    "mlirIdentifierGet": (Identifier, Context, StringRef),
    "mlirNamedAttributeGet": (NamedAttribute, Identifier, Attribute),
    "mlirSymbolTableCreate": (SymbolTable, Operation),
    "mlirSymbolTableDestroy": (None, SymbolTable),
    "mlirSymbolTableLookup": (Operation, SymbolTable, StringRef),
    # Passes.
    "mlirPassManagerCreate": (PassManager, Context),
    "mlirPassManagerDestroy": (None, PassManager),
    "mlirPassManagerGetAsOpPassManager": (OpPassManager, PassManager),
    "mlirParsePassPipeline": (LogicalResult, OpPassManager, StringRef,
                              StringCallback, _v),
    "mlirPassManagerRunOnOp": (LogicalResult, PassManager, Operation),
    # RLX: programs on the CPU, element sizes.
    "rlxCpuProgramCreate": (CpuProgram, Module, StringRef, StringRef),
    "rlxCpuProgramDestroy": (None, CpuProgram),
    "rlxCpuProgramGetNumArguments": (_i, CpuProgram),
    "rlxCpuProgramGetArgumentType": (Type, CpuProgram, _i),
    "rlxCpuProgramGetNumResults": (_i, CpuProgram),
    "rlxCpuProgramGetResultType": (Type, CpuProgram, _i),
    "rlxCpuProgramGetNumParams": (_i, CpuProgram),
    "rlxCpuProgramGetParamName": (StringRef, CpuProgram, _i),
    "rlxCpuProgramGetResultArgument": (_i, CpuProgram, _i),
    "rlxCpuProgramRun": (LogicalResult, CpuProgram, ctypes.POINTER(Tensor),
                         _i, ctypes.POINTER(Tensor), _i, StringCallback, _v),
    "rlxCpuProgramRunWithDestination": (LogicalResult, CpuProgram,
                                        ctypes.POINTER(Tensor), _i,
                                        ResultDestination, StringCallback,
                                        _v),
    "rlxGetElementBytes": (ctypes.c_int64, Type),
}

for _fn, (_res, *_args) in _SIGNATURES.items():
    _f = getattr(lib, _fn)
    _f.restype = _res
    _f.argtypes = _args


def array(ctype, items):
    """A ctypes array of `items` (and its length), for pointer+count
    arguments."""
    items = list(items)
    return (ctype * max(len(items), 1))(*items), len(items)


def collect_string(call, *args):
    """Runs a C function that prints through a string callback (as its
    last two arguments) and returns the text."""
    parts = []
    cb = StringCallback(lambda s, _: parts.append(s.bytes()))
    call(*args, cb, None)
    return b"".join(parts)
