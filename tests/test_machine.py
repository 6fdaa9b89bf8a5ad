import pytest

from rnnrepro import machine


def test_cpu_info_names_model_and_capability():
    info = machine.cpu_info()
    assert info["model"] and info["capability"] and info["machine"]
    assert info["capability"] == machine.cpu_capability()


@pytest.mark.parametrize("capability, aten", [("AVX512", "avx2"), ("avx2", "default")])
def test_lower_isa_env_goes_one_level_down(capability, aten):
    env = machine.lower_isa_env(capability)
    assert env["ATEN_CPU_CAPABILITY"] == aten
    assert set(env) == {"ATEN_CPU_CAPABILITY", "MKL_ENABLE_INSTRUCTIONS", "ONEDNN_MAX_CPU_ISA"}


@pytest.mark.parametrize("capability", ["DEFAULT", "ZVECTOR"])
def test_lower_isa_env_refuses_when_nothing_is_lower(capability):
    with pytest.raises(ValueError, match="no lower x86 instruction set"):
        machine.lower_isa_env(capability)
