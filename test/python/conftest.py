"""One vkscan device for the whole session (a device holds the pipelines
lavapipe compiled), under the Khronos validation layer as the C++ suites
run: VKSCAN_TEST_VALIDATION=0 turns it off, VKSCAN_REQUIRE_VALIDATION=1
fails the session when the layer is missing."""

import os
import zlib

import numpy as np
import pytest

import vkscan


@pytest.fixture(scope="session")
def device():
    validation = os.environ.get("VKSCAN_TEST_VALIDATION", "1") != "0"
    dev = vkscan.Device(validation=validation)
    if os.environ.get("VKSCAN_REQUIRE_VALIDATION") == "1":
        assert dev.info()["validation_enabled"], "the validation layer is not installed"
    yield dev
    assert dev.info()["validation_messages"] == 0, "the validation layer reported messages"


@pytest.fixture
def rng(request):
    # Seeded by the test's name: a failure reruns with the same data.
    return np.random.default_rng(zlib.crc32(request.node.nodeid.encode()))
