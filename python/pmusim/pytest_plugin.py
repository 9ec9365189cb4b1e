"""pytest plugin: the `pmusim_session` fixture (docs/python.md).

Load it with `-p pmusim.pytest_plugin` or `pytest_plugins = ["pmusim.pytest_plugin"]` in conftest.py.

    def test_overflow(pmusim_session):
        pmusim_session.write("CLUSTERPMCR_EL1", 1, el=1)

    @pytest.mark.pmusim_platform("power9")
    def test_power(pmusim_session): ...

Options: --pmusim=PATH (the binary; default $PMUSIM, the installed or source-tree layout, PATH),
--pmusim-platform=NAME (default arm-default), --pmusim-arg=ARG (repeatable, passed to serve and run).
A session that ends with a non-zero exit code fails the test that used it.

Sequence files: every `*.seq` file pytest is pointed at (or finds in a folder) is a test item run
as `pmusim run --quiet FILE` (the file itself, so `include`, `let` and `repeat` work and messages
name FILE:LINE). It passes when the exit code is the file's `# expect-exit: N` (0 when absent, the
convention of tests/sequences); a failure shows pmusim's own messages. --pmusim-no-seq turns the
collection off.
"""
import os
import re
import subprocess

import pytest

from .session import Session, find_pmusim


def pytest_addoption(parser):
    group = parser.getgroup("pmusim")
    group.addoption("--pmusim", default=None, help="path of the pmusim binary")
    group.addoption("--pmusim-platform", default="arm-default", help="platform of pmusim_session (default arm-default)")
    group.addoption("--pmusim-arg", action="append", default=[],
                    help="extra argument of `pmusim serve` and of `pmusim run` for *.seq files (repeatable)")
    group.addoption("--pmusim-no-seq", action="store_true", default=False, help="do not collect *.seq files")


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


_EXPECT_EXIT = re.compile(r"^# expect-exit: ([0-9]+)", re.M)
_EXIT_MEANING = {0: "passed", 1: "an expectation failed", 2: "bad input", 3: "model error"}


def pytest_collect_file(parent, file_path):
    if file_path.suffix == ".seq" and not parent.config.getoption("--pmusim-no-seq"):
        return SequenceFile.from_parent(parent, path=file_path)
    return None


class SequenceFailed(Exception):
    """`pmusim run` ended with another exit code than the file expects."""


class SequenceFile(pytest.File):
    def collect(self):
        yield SequenceItem.from_parent(self, name=self.path.name)


class SequenceItem(pytest.Item):
    """One sequence file, run as `pmusim run --quiet FILE` from the folder pytest runs in."""

    def runtest(self):
        text = self.path.read_text(errors="replace")
        m = _EXPECT_EXIT.search(text)
        expected = int(m.group(1)) if m else 0
        binary = find_pmusim(self.config.getoption("--pmusim"))
        # Relative to where pytest runs, so messages say FILE:LINE as the user would type it.
        where = os.path.relpath(str(self.path))
        p = subprocess.run([binary, "run", "--quiet", where, *self.config.getoption("--pmusim-arg")],
                           capture_output=True, text=True,
                           env=dict(os.environ, SC_COPYRIGHT_MESSAGE=os.environ.get("SC_COPYRIGHT_MESSAGE", "DISABLE")))
        self.add_report_section("call", "pmusim stdout", p.stdout)
        if p.returncode != expected:
            raise SequenceFailed(p.returncode, expected, p.stderr.strip() or p.stdout.strip())

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, SequenceFailed):
            got, expected, messages = excinfo.value.args
            return (f"pmusim run {self.path.name}: exit {got} ({_EXIT_MEANING.get(got, 'unexpected')}), "
                    f"expected {expected} ({_EXIT_MEANING.get(expected, 'unexpected')})\n{messages}")
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"sequence file {self.path.name}"
