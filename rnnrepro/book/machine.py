"""What CPU a run used, and how to make torch run on a different instruction set (portability test).

Claims must hold on any x86-64 CPU (AVX2 or AVX-512, Intel or AMD). Float32 results differ in the
last bits between instruction sets, so every ledger records the CPU model and torch's kernel
capability, and the test suite re-runs each chapter with the kernels forced one level down
(tests/test_chapters.py, compared by :mod:`rnnrepro.book.rerun`).
"""

from __future__ import annotations

import platform
from pathlib import Path

# ATen's capability names, lowest first, and what each forces in MKL and oneDNN as well.
_LEVELS = ("DEFAULT", "AVX2", "AVX512")
_MKL = {"DEFAULT": "SSE4_2", "AVX2": "AVX2", "AVX512": "AVX512"}
_ONEDNN = {"DEFAULT": "SSE41", "AVX2": "AVX2", "AVX512": "AVX512_CORE"}


def usable_cores() -> int:
    """The CPU cores this process may run on (its affinity, e.g. under ``taskset`` or a container's CPU
    set), else the machine's count; at least 1."""
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo`` on Linux, else ``platform.processor()``)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def cpu_capability() -> str:
    """torch's CPU kernel capability in use: ``DEFAULT``, ``AVX2``, ``AVX512`` (or ZVECTOR, ...)."""
    import torch

    return str(torch.backends.cpu.get_cpu_capability())


def cpu_info() -> dict[str, str]:
    """``{"model": ..., "capability": ..., "machine": ...}`` for the ledger's environment."""
    return {"model": cpu_model(), "capability": cpu_capability(), "machine": platform.machine()}


#: What this process ran in a fallback form, and why (:func:`note_fallback`): the ledger's environment records it.
_FALLBACKS: dict[str, str] = {}


def note_fallback(what: str, why: str) -> None:
    """Record that this process runs ``what`` in its fallback form (for example the pure-PyTorch trainer where the
    fused C++ one cannot be built) and ``why``; every ledger written afterwards lists it under
    ``environment.fallbacks`` (so that a test, or a reader, can tell which code computed the rows)."""
    _FALLBACKS[what] = why


def fallbacks() -> dict[str, str]:
    """What this process ran in a fallback form: ``{what: why}`` (empty when nothing did)."""
    return dict(_FALLBACKS)


def no_compiler_env(build_dir: str) -> dict[str, str]:
    """Environment variables that make the C++ compiler unavailable to the package (``CXX`` names a program that
    does not exist) and leave no compiled extension to load (``RNNREPRO_BUILD_DIR``, an empty folder
    ``build_dir``): a machine without a compiler, on this one (tests/test_chapters.py runs ribeiro so)."""
    return {"CXX": str(Path(build_dir) / "no-such-compiler"), "RNNREPRO_BUILD_DIR": str(build_dir)}


def lower_isa_env(capability: str | None = None) -> dict[str, str]:
    """Environment variables that force torch (ATen, MKL, oneDNN) and numpy's own SIMD kernels one
    instruction set below ``capability``.

    ``capability`` defaults to :func:`cpu_capability`. AVX512 → AVX2, AVX2 → DEFAULT (SSE4); raises
    ValueError for DEFAULT or a non-x86 capability (nothing lower to force). OpenBLAS (numpy's and
    scipy's BLAS) is left as the machine sets it (``OPENBLAS_CORETYPE`` is a machine setting here).
    """
    capability = (capability or cpu_capability()).upper()
    if capability not in _LEVELS[1:]:
        raise ValueError(f"no lower x86 instruction set than {capability!r} to force")
    lower = _LEVELS[_LEVELS.index(capability) - 1]
    env = {"ATEN_CPU_CAPABILITY": lower.lower(), "MKL_ENABLE_INSTRUCTIONS": _MKL[lower],
           "ONEDNN_MAX_CPU_ISA": _ONEDNN[lower]}
    numpy_off = numpy_features_above(lower)
    if numpy_off:
        env["NPY_DISABLE_CPU_FEATURES"] = " ".join(numpy_off)
    return env


def numpy_features_above(level: str) -> list[str]:
    """numpy's dispatched SIMD targets, supported here, that lie above ``level`` (AVX2 or DEFAULT)."""
    try:
        from numpy._core import _multiarray_umath as simd
    except ImportError:  # numpy < 2
        from numpy.core import _multiarray_umath as simd
    above_avx2 = lambda f: f.startswith("AVX512") or f == "X86_V4"
    above = above_avx2 if level == "AVX2" else lambda f: above_avx2(f) or f in ("X86_V3", "AVX2", "FMA3", "AVX", "F16C")
    return [f for f in simd.__cpu_dispatch__ if simd.__cpu_features__.get(f) and above(f)]
