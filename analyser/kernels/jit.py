"""The njit flavours for compiled game code, cached where analyser.kernels.cache says.

``kernel``: kernels only read and write arrays they are handed (state records,
masks, the log) and never allocate, so they are compiled without numba's
reference counting (NRT): with it, every array passed between two kernels costs
an atomic incref/decref pair, which was most of a simulation's time. A kernel
that tries to allocate fails to compile, which is the intended guard. Allocate
in the caller (a game's ``_block_nb``, analyser.kernels.loops) and hand the buffers down.

``inline_kernel``: for the small kernels on the per-action path (and those that
take many arguments): numba passes an array as seven scalars, so a call can cost
more than the callee's work. Inlining every kernel instead was slower and took
six times as long to compile, so this is used only where a benchmark showed a gain.

``PointerEntry``: an entry point over a kernel that calls the game's compiled functions
through pointers, compiled now or on its first call.

``jit(**options)``: ``njit(cache=True, **options)`` for a game outside the
package (a game checked with analyser.testing): its functions are cached under
the analyser's cache, keyed by these kernels, so an upgrade never runs stale code.

Each of them compiles a call from compiled code for its arguments' types, not their values:
numba otherwise compiles one more copy for every literal argument (``log_event_nb(log, E, 0,
seat, 0, 0)``, ``below_nb(st, 2)``, builder's ``choose_nb(pb, pv, True, False, ...)``); with
Palace's one compiled turn, this made every game's first run 11-33% shorter (benchmarks/RESULTS.md,
nineteenth session). LLVM still folds a constant argument of a call it inlines.
"""
import inspect

from numba import njit, types

from analyser.kernels import cache

cache.install()  # before any kernel is decorated: numba picks a function's cache folder then


def jit(**options):
    """A decorator: ``njit(cache=True, **options)`` with the function's cache folder keyed by the kernels."""
    compile_ = njit(cache=True, **options)

    def decorate(fn):
        cache.claim(fn)
        return for_types(compile_(fn))

    return decorate


def for_types(dispatcher):
    """``dispatcher`` (numba's), made to compile a call from compiled code for the types of its
    arguments only (the module docstring says why); under NUMBA_DISABLE_JIT ``njit`` hands back
    the plain function, which is returned as it is."""
    typed = getattr(dispatcher, "get_call_template", None)
    if typed is None:
        return dispatcher

    def get_call_template(args, kws):
        return typed(tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


kernel = jit(_nrt=False)
inline_kernel = jit(_nrt=False, inline="always")


class PointerEntry:
    """A game's entry point over a compiled kernel that takes some of the game's compiled functions
    as pointers, appended to its arguments (analyser.kernels.loops says why): callers pass the
    shared ``signature``'s arguments only, named ``arguments`` (the template's, less the pointers).
    ``make()`` compiles (or loads) and returns ``(kernel, pointers)``; it runs at once, or with
    ``lazy`` on the first call (or ``compiled()``), for a kernel only some commands run (replay
    imports a game's playouts; only rollout plays worlds)."""

    def __init__(self, template, signature, make, pointers: int, lazy: bool = False):
        self.__name__ = self.__qualname__ = template.__name__
        self.__doc__ = template.__doc__
        self.signature = signature
        self.arguments = tuple(inspect.signature(template).parameters)[:-pointers]
        self._make, self._made = make, None
        if not lazy:
            self.compiled()

    def compiled(self):
        if self._made is None:
            self._made = self._make()
        return self._made

    def __call__(self, *arguments):
        kernel, pointers = self.compiled()
        return kernel(*arguments, *pointers)
