"""ONNX's own CumSum conformance cases, from the generators Debian's
python3-onnx ships (onnx/backend/test/case/node/cumsum.py), through
vkscan.cumsum: the node's attributes, its inputs, its expected output."""

import importlib

import numpy as np
import pytest

import vkscan

onnx_node = pytest.importorskip("onnx.backend.test.case.node")


def cumsum_cases():
    # collect_testcases() imports every operator's generators, and some of
    # onnx 1.12's use np.float, which numpy 1.24 removed: import CumSum's
    # alone; its class body calls expect(), which records each case.
    importlib.import_module("onnx.backend.test.case.node.cumsum")
    return [case for case in onnx_node._NodeTestCases
            if case.model.graph.node[0].op_type == "CumSum"]


CASES = cumsum_cases()


def test_every_case_was_collected():
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
