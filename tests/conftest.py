"""Shared test settings: float64 and one thread, as the book runs."""

import pytest
import torch


@pytest.fixture(autouse=True)
def _float64_one_thread():
    dtype = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    torch.set_num_threads(1)
    yield
    torch.set_default_dtype(dtype)
