"""The QEMU cases under pytest: one test, a row per Case (conftest.py).

The cases themselves are data (a Case(...) in tests/cases/*.py says what
to boot and what the serial log must show); `guest` boots one and judges
its log, and this test turns the verdict into pytest's.
"""

import pytest


def test_case(guest):
    if guest.status == "SKIP":
        pytest.skip(guest.detail)
    if guest.status == "FAIL":
        pytest.fail(guest.failure, pytrace=False)
