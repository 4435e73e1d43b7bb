from typing import Any, List, Optional, Union
import numpy as np
from .builder import Function
from .ir import Context, Module, Type

def numpy_dtype(dtype: str) -> np.dtype: ...

class Program:
    name: str
    context: Context
    argument_types: List[Type]
    result_types: List[Type]
    param_names: List[str]
    result_arguments: List[Optional[int]]
    def __call__(self, *args: Any) -> Any: ...

def compile(module: Union[Module, Function], target: str = ..., function: Optional[str] = ..., options: str = ..., chip: str = ..., out_dir: Optional[str] = ...) -> Any: ...
