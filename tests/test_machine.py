import pytest

from rnnrepro.book import machine


def test_cpu_info_names_model_and_capability():
    info = machine.cpu_info()
    assert info["model"] and info["capability"] and info["machine"]
    assert info["capability"] == machine.cpu_capability()


@pytest.mark.parametrize("capability, aten", [("AVX512", "avx2"), ("avx2", "default")])
def test_lower_isa_env_goes_one_level_down(capability, aten):
    env = machine.lower_isa_env(capability)
    assert env["ATEN_CPU_CAPABILITY"] == aten
    torch_vars = {"ATEN_CPU_CAPABILITY", "MKL_ENABLE_INSTRUCTIONS", "ONEDNN_MAX_CPU_ISA"}
    assert torch_vars <= set(env) and set(env) - torch_vars <= {"NPY_DISABLE_CPU_FEATURES"}


def test_numpy_features_are_switched_off_in_a_child():
    import os
    import subprocess
    import sys

    off = machine.numpy_features_above("DEFAULT")
    if not off:
        pytest.skip("numpy dispatches no SIMD target above SSE4 on this CPU")
    code = ("from numpy._core import _multiarray_umath as s; "
            "print(' '.join(f for f in s.__cpu_dispatch__ if s.__cpu_features__.get(f)))")
    env = dict(os.environ, NPY_DISABLE_CPU_FEATURES=" ".join(off))
    still_on = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert not set(still_on.stdout.split()) & set(off)


@pytest.mark.parametrize("capability", ["DEFAULT", "ZVECTOR"])
def test_lower_isa_env_refuses_when_nothing_is_lower(capability):
    with pytest.raises(ValueError, match="no lower x86 instruction set"):
        machine.lower_isa_env(capability)


def test_usable_cores_are_the_affinity_else_the_count(monkeypatch):
    import os

    assert machine.usable_cores() == len(os.sched_getaffinity(0))
    monkeypatch.delattr(os, "sched_getaffinity")
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    assert machine.usable_cores() == 3
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert machine.usable_cores() == 1
