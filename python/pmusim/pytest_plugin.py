"""pytest plugin: the `pmusim_session` fixture (docs/python.md).

Load it with `-p pmusim.pytest_plugin` or `pytest_plugins = ["pmusim.pytest_plugin"]` in conftest.py.

    def test_overflow(pmusim_session):
        pmusim_session.write("CLUSTERPMCR_EL1", 1, el=1)

    @pytest.mark.pmusim_platform("power9")
    def test_power(pmusim_session): ...

Options: --pmusim=PATH (the binary; default $PMUSIM, the installed or source-tree layout, PATH),
--pmusim-platform=NAME (default arm-default), --pmusim-arg=ARG (repeatable, passed to serve).
A session that ends with a non-zero exit code fails the test that used it.
"""
import pytest

from .session import Session


def pytest_addoption(parser):
    group = parser.getgroup("pmusim")
    group.addoption("--pmusim", default=None, help="path of the pmusim binary")
    group.addoption("--pmusim-platform", default="arm-default", help="platform of pmusim_session (default arm-default)")
    group.addoption("--pmusim-arg", action="append", default=[], help="extra argument of `pmusim serve` (repeatable)")


def pytest_configure(config):
    config.addinivalue_line("markers", "pmusim_platform(name): the platform the pmusim_session fixture serves")


@pytest.fixture
def pmusim_session(request):
    """A fresh `pmusim serve` session (one SystemC kernel) per test, closed and checked at teardown."""
    marker = request.node.get_closest_marker("pmusim_platform")
    platform = marker.args[0] if marker else request.config.getoption("--pmusim-platform")
    session = Session(platform=platform, pmusim=request.config.getoption("--pmusim"),
                      args=request.config.getoption("--pmusim-arg"))
    try:
        yield session
    finally:
        session.close(check=not getattr(request.node, "_pmusim_failed", False))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if outcome.get_result().failed:
        item._pmusim_failed = True  # a failing test's session may have ended; report the test's error only
