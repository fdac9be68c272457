"""ONNX's own CumSum conformance cases, from the generators Debian's
python3-onnx ships (onnx/backend/test/case/node/cumsum.py), through
vkscan.cumsum: the node's attributes, its inputs, its expected output. And
CumProd's cases (opset 26, onnx/onnx#7400), which onnx 1.12 predates,
written out from the operator's specification, through vkscan.cumprod."""

import importlib

import numpy as np
import pytest

import vkscan

try:
    import onnx.backend.test.case.node as onnx_node
except ImportError:
    onnx_node = None


def cumsum_cases():
    # collect_testcases() imports every operator's generators, and some of
    # onnx 1.12's use np.float, which numpy 1.24 removed: import CumSum's
    # alone; its class body calls expect(), which records each case.
    importlib.import_module("onnx.backend.test.case.node.cumsum")
    return [case for case in onnx_node._NodeTestCases
            if case.model.graph.node[0].op_type == "CumSum"]


CASES = cumsum_cases() if onnx_node is not None else []


def test_every_case_was_collected():
    if onnx_node is None:
        pytest.skip("onnx is not installed")
    assert len(CASES) >= 7, [case.name for case in CASES]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_onnx_cumsum_case(device, case):
    node = case.model.graph.node[0]
    attributes = {a.name: a.i for a in node.attribute}
    for inputs, outputs in case.data_sets:
        x, axis = inputs
        # ONNX's CumSum keeps the input's type.
        got = vkscan.cumsum(x, axis=int(axis), dtype=x.dtype,
                            exclusive=bool(attributes.get("exclusive", 0)),
                            reverse=bool(attributes.get("reverse", 0)), device=device)
        want = outputs[0]
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=case.rtol, atol=case.atol)


# CumProd(x, axis) with its exclusive and reverse attributes -> the output.
CUMPROD_CASES = {
    "cumprod_1d": ([1, 2, 3, 4, 5], 0, 0, 0, [1, 2, 6, 24, 120]),
    "cumprod_1d_exclusive": ([1, 2, 3, 4, 5], 0, 1, 0, [1, 1, 2, 6, 24]),
    "cumprod_1d_reverse": ([1, 2, 3, 4, 5], 0, 0, 1, [120, 120, 60, 20, 5]),
    "cumprod_1d_reverse_exclusive": ([1, 2, 3, 4, 5], 0, 1, 1, [120, 60, 20, 5, 1]),
    "cumprod_2d_axis_0": ([[1, 2, 3], [4, 5, 6]], 0, 0, 0, [[1, 2, 3], [4, 10, 18]]),
    "cumprod_2d_axis_1": ([[1, 2, 3], [4, 5, 6]], 1, 0, 0, [[1, 2, 6], [4, 20, 120]]),
    "cumprod_2d_negative_axis": ([[1, 2, 3], [4, 5, 6]], -1, 0, 0, [[1, 2, 6], [4, 20, 120]]),
}
# Every type CumProd takes that vkscan scans (float16 and bfloat16 too, as the
# products are exact in them).
CUMPROD_TYPES = [np.float32, np.float64, np.float16, np.int32, np.int64, np.uint32, np.uint64]


@pytest.mark.parametrize("dtype", CUMPROD_TYPES, ids=lambda t: np.dtype(t).name)
def test_onnx_cumprod_cases(device, dtype):
    if np.dtype(dtype) == np.float64 and not device.supports("FLOAT64"):
        pytest.skip("the device lacks shaderFloat64")
    for name, (x, axis, exclusive, reverse, y) in CUMPROD_CASES.items():
        x = np.array(x, dtype)
        # ONNX's CumProd keeps the input's type, as its CumSum does.
        got = vkscan.cumprod(x, axis=axis, dtype=x.dtype, exclusive=bool(exclusive),
                             reverse=bool(reverse), device=device)
        assert got.dtype == x.dtype, name
        assert np.array_equal(got, np.array(y, dtype)), name


def test_onnx_cumprod_cases_in_bfloat16(device):
    def bfloat16(values):
        return (np.array(values, np.float32).view(np.uint32) >> 16).astype(np.uint16)

    for name, (x, axis, exclusive, reverse, y) in CUMPROD_CASES.items():
        got = vkscan.cumprod(bfloat16(x), axis=axis, exclusive=bool(exclusive),
                             reverse=bool(reverse), bfloat16=True, device=device)
        assert np.array_equal(got, bfloat16(y)), name
