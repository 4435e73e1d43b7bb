from .ir import SVG as SVG, Context as Context, Module as Module, RLXError as RLXError, Type as Type, default_context as default_context
from .builder import Function as Function, Value as Value, numpy_to_mlir as numpy_to_mlir
from . import ops as ops, hir as hir
from .ops import *
from .compiler import Program as Program, compile as compile, numpy_dtype as numpy_dtype
from .transforms import grad as grad, jvp as jvp, vmap as vmap
from . import cuda as cuda
from .importers import ImportedModel as ImportedModel, UnsupportedError as UnsupportedError, from_onnx as from_onnx, from_torch as from_torch
