"""Bit operations the compiled loops need, as single machine instructions."""

from __future__ import annotations

import numba
from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def _count_trailing_zeros(typingctx, value):
    """LLVM's cttz on an int64, with 0 declared impossible (one tzcnt or bsf instruction)."""
    signature = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        int64 = ir.IntType(64)
        function_type = ir.FunctionType(int64, [int64, ir.IntType(1)])
        function = builder.module.declare_intrinsic("llvm.cttz", [int64], function_type)
        return builder.call(function, [args[0], ir.Constant(ir.IntType(1), 1)])

    return signature, codegen


@numba.njit(cache=True, _nrt=False)
def lowest_bit(value: int) -> int:
    """The index of the lowest set bit of ``value`` (which must not be 0).

    >>> lowest_bit(0b10100)
    2
    """
    return _count_trailing_zeros(value)
