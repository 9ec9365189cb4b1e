"""pmusim: a Python client of `pmusim serve` (docs/python.md).

    import pmusim
    with pmusim.Session(platform="arm-default") as s:
        s.write("CLUSTERPMCR_EL1", 1, el=1)
        s.run("1us")
        s.expect_read("CLUSTERPMCR_EL1", 1, mask=1)

Pure Python (standard library only): one `pmusim serve` process per session, one
statement per line, exactly one answer line per statement (docs/sequence-language.md,
"Serve mode"). Expectation helpers raise ExpectationFailed naming the caller's file:line.
"""
from .session import (  # noqa: F401
    Answer, Batch, ExpectationFailed, InputError, IrqEdge, ModelError, Pending, PmusimError,
    Session, caller_location, expect_equal, find_pmusim,
)

__all__ = ["Answer", "Batch", "ExpectationFailed", "InputError", "IrqEdge", "ModelError",
           "Pending", "PmusimError", "Session", "caller_location", "expect_equal", "find_pmusim"]
