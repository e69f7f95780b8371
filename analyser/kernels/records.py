"""Kernels every game runs on its records, whatever their dtypes.

numba compiles (and caches) one version of each for every game's record types,
so they cost what the game's own copy cost; a game calls them as it called that.
"""
import numpy as np
from numba import config, types
from numba.core import cgutils
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic, overload
from numba.np.arrayobj import make_array, populate_array

from analyser.kernels.jit import inline_kernel, kernel
from analyser.kernels.outcome import ERROR


def zero_nb(array):
    """Set every byte of a C-contiguous array to zero. This is the uncompiled meaning (a run
    with NUMBA_DISABLE_JIT); compiled code calls a memset (_zero_bytes): the view below makes
    numba compile a view check for every record type viewed, about 0.2 s of a first run each."""
    array.view(np.uint8)[:] = 0


@intrinsic
def _zero_bytes(typingctx, array):
    def codegen(context, builder, signature, args):
        ary = context.make_array(array)(context, builder, args[0])
        itemsize = context.get_constant(types.intp, context.get_abi_sizeof(context.get_data_type(array.dtype)))
        cgutils.memset(builder, ary.data, builder.mul(ary.nitems, itemsize), 0)
        return context.get_dummy_value()

    return types.void(array), codegen


@overload(zero_nb)
def _zero_nb_compiled(array):
    if isinstance(array, types.Array) and array.layout == "C":
        return lambda array: _zero_bytes(array)
    return None


@intrinsic
def _view(typingctx, array, dtype):
    if not (isinstance(array, types.Array) and array.ndim == 1 and array.layout == "C"
            and isinstance(dtype, (types.NumberClass, types.DType))):
        return None
    to = dtype.instance_type if isinstance(dtype, types.NumberClass) else dtype.dtype
    viewed = types.Array(to, 1, "C")

    def codegen(context, builder, signature, args):
        ary = make_array(array)(context, builder, args[0])
        out = make_array(viewed)(context, builder)
        size = context.get_abi_sizeof(context.get_data_type(to))
        nbytes = builder.mul(ary.nitems, context.get_constant(types.intp, context.get_abi_sizeof(
            context.get_data_type(array.dtype))))
        step = context.get_constant(types.intp, size)
        populate_array(out, data=builder.bitcast(ary.data, out.data.type), shape=[builder.udiv(nbytes, step)],
                       strides=[step], itemsize=step, meminfo=ary.meminfo, parent=ary.parent)
        return impl_ret_borrowed(context, builder, viewed, out._getvalue())

    return viewed(array, dtype), codegen


def _view_uncompiled(array, dtype):
    return array.view(dtype)


# ``view_nb(array, dtype)``: ``array.view(dtype)`` for a one-dimensional C-contiguous array whose bytes
# hold a whole number of ``dtype``. Compiled code reinterprets the buffer in place (an intrinsic, called
# directly: a kernel without NRT may return no array it was not handed, so no overload can wrap it);
# numba's own ``view`` compiles a compatibility check for every pair of types it is used on, about
# 0.2 s of a first run each (Palace's simulate had six pairs). Under NUMBA_DISABLE_JIT it is numpy's.
view_nb = _view_uncompiled if config.DISABLE_JIT else _view


def copy_bytes_nb(dst, src):
    """Copy the bytes of ``src`` (a C-contiguous array of any dtype) into the uint8 row ``dst``, as long
    as they are. This is the uncompiled meaning; compiled code calls a memcpy (_copy_bytes): the view
    and the slice assignment below make numba compile a view check and the text of a shape-mismatch
    error (its string formatting), about 2 s of a first replay."""
    dst[:] = src.view(np.uint8)


@intrinsic
def _copy_bytes(typingctx, dst, src):
    def codegen(context, builder, signature, args):
        to = context.make_array(dst)(context, builder, args[0])
        ary = context.make_array(src)(context, builder, args[1])
        itemsize = context.get_abi_sizeof(context.get_data_type(src.dtype))
        cgutils.raw_memcpy(builder, to.data, ary.data, ary.nitems, itemsize)
        return context.get_dummy_value()

    return types.void(dst, src), codegen


@overload(copy_bytes_nb)
def _copy_bytes_nb_compiled(dst, src):
    if (isinstance(dst, types.Array) and dst.layout == "C" and dst.dtype == types.uint8
            and isinstance(src, types.Array) and src.layout == "C"):
        return lambda dst, src: _copy_bytes(dst, src)
    return None


@kernel
def reset_nb(pub, priv, hid):
    """Empty every field of the three state arrays, so one set serves many units."""
    zero_nb(pub)
    zero_nb(priv)
    zero_nb(hid)


@inline_kernel
def record_status_nb(rec, unit, length, hd):
    """The outcome block's ``unit`` and ``length``, and the status counters every game's
    hidden record keeps (analyser.kernels.outcome.STATUS_COUNTERS), into the result record."""
    rec["unit"] = unit
    rec["length"] = length
    rec["decisions"] = hd["decisions"]
    rec["aborted"] = hd["aborted"]
    rec["error"] = hd["error"]
    rec["error_seat"] = hd["error_seat"]


@inline_kernel
def illegal_action_nb(hd, seat):
    """Abort the unit: the policy of ``seat`` chose an action that is not legal (the
    runner names it in a one-line error)."""
    hd["error"] = ERROR.ILLEGAL_ACTION
    hd["error_seat"] = seat
    hd["aborted"] = True
