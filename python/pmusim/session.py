"""The session object: one `pmusim serve` process spoken to line by line (docs/python.md)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from fractions import Fraction

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class PmusimError(Exception):
    """Base class of everything this package raises about the model or its input."""


class InputError(PmusimError):
    """serve answered ERR: the statement was bad input and was not executed (exit code 2 in a file run)."""


class ModelError(PmusimError):
    """The serve process ended (a model error ends a session with exit 3) or could not start."""


class ExpectationFailed(PmusimError, AssertionError):
    """An expectation did not hold. The message starts with the caller's file:line.
    An AssertionError, so pytest reports it as a test failure, not an error."""


def caller_location():
    """file:line of the first frame outside this package (the test or script that called us)."""
    frame = sys._getframe(1)
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == _PACKAGE_DIR:
        frame = frame.f_back
    if frame is None:
        return "<unknown>:0"
    return f"{frame.f_code.co_filename}:{frame.f_lineno}"


def expect_equal(got, want, what="value"):
    """Raises ExpectationFailed naming the caller's file:line when got != want (integers shown in hex too)."""
    if got != want:
        show = (lambda v: f"{v} ({v:#x})") if isinstance(got, int) and isinstance(want, int) else repr
        raise ExpectationFailed(f"{caller_location()}: {what}: got {show(got)}, expected {show(want)}")


def find_pmusim(explicit=None):
    """The pmusim binary: the argument, $PMUSIM, the installed layout (PREFIX/share/pmusim/python/pmusim
    -> PREFIX/bin/pmusim), the source tree's build/pmusim, then PATH."""
    candidates = [explicit, os.environ.get("PMUSIM"),
                  os.path.join(_PACKAGE_DIR, "..", "..", "..", "..", "bin", "pmusim"),
                  os.path.join(_PACKAGE_DIR, "..", "..", "build", "pmusim")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    if explicit:
        raise ModelError(f"pmusim binary '{explicit}' not found or not executable")
    found = shutil.which("pmusim")
    if found:
        return found
    raise ModelError("pmusim binary not found: pass pmusim=PATH, set $PMUSIM, or put pmusim on PATH")


_FS_PER_UNIT = {"fs": 1, "ps": 10**3, "ns": 10**6, "us": 10**9, "ms": 10**12, "s": 10**15}
_EDGE = re.compile(r" irq (\S+) (high|low)@([0-9.]+) ?(fs|ps|ns|us|ms|s)\b")


class IrqEdge:
    """An interrupt edge seen while a statement ran: line name, level (True = high), time in fs."""
    __slots__ = ("line", "high", "time_fs")

    def __init__(self, line, high, time_fs):
        self.line, self.high, self.time_fs = line, high, time_fs

    def __eq__(self, other):
        return isinstance(other, IrqEdge) and (self.line, self.high, self.time_fs) == (other.line, other.high, other.time_fs)

    def __repr__(self):
        return f"IrqEdge({self.line!r}, {'high' if self.high else 'low'}, {self.time_fs} fs)"


class Answer:
    """One answer line of serve, parsed.
    kind: OK TRAP UNDEFINED ERROR IGNORED FAIL ERR; outcome: 'ok', 'trap el1', 'undefined', 'error',
    'ignored' (None for FAIL/ERR); value: the text after OK (a read's hex value, a param's value) or None;
    message: the text after FAIL/ERR; irqs: the IrqEdge list appended to the answer."""

    def __init__(self, line):
        self.line = line
        self.irqs = [IrqEdge(m.group(1), m.group(2) == "high", int(Fraction(m.group(3)) * _FS_PER_UNIT[m.group(4)]))
                     for m in _EDGE.finditer(line)]
        head = _EDGE.sub("", line) if self.irqs else line
        self.kind, _, rest = head.partition(" ")
        self.message = rest if self.kind in ("FAIL", "ERR") else None
        self.value = rest if self.kind == "OK" and rest else None
        self.outcome = {"OK": "ok", "UNDEFINED": "undefined", "ERROR": "error", "IGNORED": "ignored",
                        "TRAP": "trap " + rest}.get(self.kind)
        if self.kind not in ("OK", "TRAP", "UNDEFINED", "ERROR", "IGNORED", "FAIL", "ERR"):
            raise ModelError(f"unexpected answer from pmusim serve: {line!r}")

    @property
    def number(self):
        """The value as an integer (a read's answer)."""
        return int(self.value, 16) if self.value and self.value.startswith("0x") else None

    def __repr__(self):
        return f"Answer({self.line!r})"


class Pending:
    """The future answer of a statement sent in a batch. .result() sends what is queued if needed."""
    __slots__ = ("session", "statement", "where", "handler", "done", "_value", "_error")

    def __init__(self, session, statement, where, handler):
        self.session, self.statement, self.where, self.handler = session, statement, where, handler
        self.done, self._value, self._error = False, None, None

    def _resolve(self, answer):
        self.done = True
        try:
            self._value = self.handler(answer, self)
        except PmusimError as e:
            self._error = e

    def result(self):
        if not self.done:
            self.session.flush()
        if self._error is not None:
            raise self._error
        return self._value

    @property
    def value(self):
        return self.result()


class Batch:
    """`with s.batch():` queues statements; they are sent together when the block ends (or when a
    result is needed first). Methods of the session return Pending objects inside the block.
    The first failed expectation of the batch is raised when the block ends."""

    def __init__(self, session):
        self.session = session

    def __enter__(self):
        self.session._batch_depth += 1
        return self.session

    def __exit__(self, kind, exc, tb):
        self.session._batch_depth -= 1
        if self.session._batch_depth == 0:
            self.session.flush(raise_first=kind is None)
        return False


class Session:
    """A `pmusim serve` process on one platform.

    Accessor keywords, accepted by every access and by use(): cpu (int), el (0-3), secure (bool),
    guest (bool), priv ('user'|'os'|'hv', POWER), debug (True: the external debugger). Keywords on a
    call apply to that call only; use() sets the defaults. The `as` statement is sent only when
    the accessor changes."""

    # Statements per write and bytes per write: the answers of one chunk fit in a pipe's buffer,
    # so neither process blocks on a full pipe while the other waits for it.
    CHUNK_STATEMENTS = 256
    CHUNK_BYTES = 32 * 1024

    def __init__(self, platform="arm-default", pmusim=None, args=(), env=None):
        self.binary = find_pmusim(pmusim)
        self.platform = platform
        self._stderr = tempfile.TemporaryFile()
        environment = dict(os.environ if env is None else env)
        environment.setdefault("SC_COPYRIGHT_MESSAGE", "DISABLE")
        try:
            self.proc = subprocess.Popen([self.binary, "serve", "--platform", platform, *args],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
                                         env=environment)
        except OSError as e:
            raise ModelError(f"cannot start {self.binary}: {e}") from e
        self._queue = []
        self._batch_depth = 0
        self._defaults = {}
        self._current_as = "as cpu0"  # serve's start state (docs/sequence-language.md "as")
        self.irq_events = []           # every IrqEdge seen, in order
        self.irq_levels = {}           # line -> last level seen (True = high)
        self._irq_callbacks = []
        self.statements_sent = 0
        self.round_trips = 0
        self.exit_code = None

    # --- process ---------------------------------------------------------------------------
    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        self.close(check=kind is None)
        return False

    def close(self, check=True):
        """Sends what is queued, ends the session and returns serve's exit code (0 expected)."""
        if self.exit_code is not None:
            return self.exit_code
        try:
            if self._queue:
                self.flush()
        finally:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.exit_code = self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.exit_code = self.proc.wait()
            self.proc.stdout.close()
        if check and self.exit_code != 0:
            raise ModelError(f"pmusim serve exited with {self.exit_code}: {self._stderr_text()}")
        return self.exit_code

    def _stderr_text(self):
        self._stderr.seek(0)
        return self._stderr.read().decode(errors="replace").strip()

    # --- sending ---------------------------------------------------------------------------
    def batch(self):
        """Context manager: statements inside are sent together (many per round trip)."""
        return Batch(self)

    def _submit(self, statement, handler, where=None):
        if "\n" in statement or "\r" in statement:
            raise ValueError(f"one statement per call, without line breaks: {statement!r}")
        if not statement.split("#", 1)[0].strip():
            raise ValueError(f"blank or comment-only text is not a statement (serve answers none): {statement!r}")
        if self.exit_code is not None:
            raise ModelError("the session is closed")
        pending = Pending(self, statement, where or caller_location(), handler)
        self._queue.append(pending)
        return self._finish(pending)

    def _finish(self, pending):
        """Inside a batch: the Pending; otherwise send now and return its result."""
        if self._batch_depth:
            return pending
        self.flush()
        return pending.result()

    def flush(self, raise_first=True):
        """Sends every queued statement, reads their answers, and raises the first error among them."""
        queue, self._queue = self._queue, []
        first_error = None
        start = 0
        while start < len(queue):
            end, size = start, 0
            while end < len(queue) and end - start < self.CHUNK_STATEMENTS and (end == start or size < self.CHUNK_BYTES):
                size += len(queue[end].statement) + 1
                end += 1
            chunk = queue[start:end]
            data = "".join(p.statement + "\n" for p in chunk).encode()
            try:
                self.proc.stdin.write(data)
                self.proc.stdin.flush()
            except (BrokenPipeError, OSError):
                pass  # the answers below find the process gone and say why
            self.round_trips += 1
            self.statements_sent += len(chunk)
            for p in chunk:
                raw = self.proc.stdout.readline()
                if not raw:
                    code = self.proc.wait()
                    self.exit_code = code
                    raise ModelError(f"{p.where}: pmusim serve ended (exit {code}) before answering "
                                     f"{p.statement!r}: {self._stderr_text()}")
                answer = Answer(raw.decode(errors="replace").rstrip("\n"))
                for edge in answer.irqs:
                    self.irq_events.append(edge)
                    self.irq_levels[edge.line] = edge.high
                    for cb in self._irq_callbacks:
                        cb(edge)
                p._resolve(answer)
                if p._error is not None and first_error is None:
                    first_error = p._error
            start = end
        if first_error is not None and raise_first:
            raise first_error

    # --- raw statements --------------------------------------------------------------------
    def ask(self, statement):
        """Sends one statement and returns its Answer as it is (no outcome is treated as an error)."""
        return self._submit(statement, lambda a, p: a)

    def statement(self, text):
        """Sends a statement that must answer OK (FAIL raises ExpectationFailed, ERR InputError);
        returns the IrqEdge list of its answer."""
        return self._submit(text, _expect_ok)

    def on_irq(self, callback):
        """Calls callback(IrqEdge) for every interrupt edge reported from now on."""
        self._irq_callbacks.append(callback)

    # --- accessor --------------------------------------------------------------------------
    def use(self, **accessor):
        """Sets the default accessor for later accesses (cpu=, el=, secure=, guest=, priv=, debug=)."""
        _as_statement(accessor)  # checks the keywords now
        self._defaults = dict(accessor)

    def _accessor(self, accessor, where):
        merged = {**self._defaults, **{k: v for k, v in accessor.items() if v is not None}}
        text = _as_statement(merged)
        if text != self._current_as:
            self._current_as = text

            def handle(answer, pending):
                if answer.kind != "OK":
                    self._current_as = None  # unknown now: the next access sends its own `as`
                return _expect_ok(answer, pending)
            self._submit(text, handle, where)

    # --- accesses --------------------------------------------------------------------------
    def _access(self, statement, outcome, accessor, returns_value):
        where = caller_location()

        def handle(answer, pending):
            _raise_on_err(answer, pending)
            if answer.kind == "FAIL":
                raise ExpectationFailed(f"{pending.where}: {answer.message}")
            if outcome is not None and answer.outcome != outcome:
                raise ExpectationFailed(f"{pending.where}: {statement}: outcome {answer.outcome}, expected {outcome}")
            return answer.number if returns_value else answer.outcome

        self._batch_depth += 1  # the `as` (if any) and the access travel together
        try:
            self._accessor(accessor, where)
            pending = self._submit(statement, handle, where)
        finally:
            self._batch_depth -= 1
        return self._finish(pending)

    def read(self, reg, *, outcome="ok", **accessor):
        """Reads a register; returns its value (None when the access did not complete). An outcome
        other than `outcome` ('ok', 'trap el1', 'undefined', 'error'; None = any) raises ExpectationFailed."""
        return self._access(f"read {reg}", outcome, accessor, True)

    def write(self, reg, value, *, mask=None, outcome="ok", **accessor):
        """Writes a register (with mask: read-modify-write of the bits in mask); returns the outcome."""
        return self._access(f"write {reg} {value:#x}" + (f" mask {mask:#x}" if mask is not None else ""),
                            outcome, accessor, False)

    def read32(self, address, *, outcome="ok", **accessor):
        return self._access(f"read32 {address:#x}", outcome, accessor, True)

    def read64(self, address, *, outcome="ok", **accessor):
        return self._access(f"read64 {address:#x}", outcome, accessor, True)

    def write32(self, address, value, *, outcome="ok", **accessor):
        return self._access(f"write32 {address:#x} {value:#x}", outcome, accessor, False)

    def write64(self, address, value, *, outcome="ok", **accessor):
        return self._access(f"write64 {address:#x} {value:#x}", outcome, accessor, False)

    # --- expectations ----------------------------------------------------------------------
    def expect_read(self, reg, value, *, mask=None, **accessor):
        """Expects the register to read `value` (only the bits in mask, if given); serve checks it."""
        return self._access(f"read {reg} == {value:#x}" + (f" mask {mask:#x}" if mask is not None else ""),
                            "ok", accessor, True)

    def expect_read32(self, address, value, *, mask=None, **accessor):
        return self._access(f"read32 {address:#x} == {value:#x}" + (f" mask {mask:#x}" if mask is not None else ""),
                            "ok", accessor, True)

    def expect_read64(self, address, value, *, mask=None, **accessor):
        return self._access(f"read64 {address:#x} == {value:#x}" + (f" mask {mask:#x}" if mask is not None else ""),
                            "ok", accessor, True)

    def expect_irq(self, line, high):
        """Expects interrupt line `line` to be high (True or 'high') or low now."""
        return self.statement(f"expect irq {line} {_level(high)}")

    def wait_irq(self, line, high, timeout=None):
        """Advances time until the line reaches the level (fails after timeout, default 1 s)."""
        return self.statement(f"wait irq {line} {_level(high)}" + (f" timeout {_duration(timeout)}" if timeout else ""))

    # --- time and platform -----------------------------------------------------------------
    def run(self, duration=None, *, cycles=None, clock=None):
        """run("1us") | run(femtoseconds) | run(cycles=N[, clock="dsu0"]); returns the IrqEdge list."""
        if (duration is None) == (cycles is None):
            raise ValueError("run: give a duration or cycles=, not both")
        if cycles is not None:
            return self.statement(f"run {int(cycles)} cycles" + (f" of {clock}" if clock else ""))
        return self.statement(f"run {_duration(duration)}")

    def power(self, cpu, state):
        return self.statement(f"power cpu{cpu} {state}")

    def security(self, cpu, secure):
        return self.statement(f"security cpu{cpu} {'secure' if secure else 'nonsecure'}")

    def freq(self, clock, frequency):
        return self.statement(f"freq {clock} {frequency}")

    def workload(self, cpu, **rates):
        """workload(0, inst="3/2", l1d_refill="1/100")"""
        return self.statement(f"workload cpu{cpu} " + " ".join(f"{k}={v}" for k, v in rates.items()))

    def inject(self, target, event, count, over=None):
        return self.statement(f"inject {target} {event} {int(count)}" + (f" over {_duration(over)}" if over else ""))

    def reset(self, kind="cold"):
        return self.statement(f"reset {kind}")

    def param(self, name):
        """The platform parameter's canonical value (text)."""
        def handle(answer, pending):
            _raise_on_err(answer, pending)
            return answer.value
        return self._submit(f"param {name}", handle)


def _raise_on_err(answer, pending):
    if answer.kind == "ERR":
        raise InputError(f"{pending.where}: {pending.statement!r}: {answer.message}")


def _expect_ok(answer, pending):
    _raise_on_err(answer, pending)
    if answer.kind == "FAIL":
        raise ExpectationFailed(f"{pending.where}: {answer.message}")
    if answer.kind != "OK":
        raise ExpectationFailed(f"{pending.where}: {pending.statement}: answered {answer.line}")
    return answer.irqs


def _level(high):
    if high in (True, "high"):
        return "high"
    if high in (False, "low"):
        return "low"
    raise ValueError(f"irq level: expected True/False or 'high'/'low', got {high!r}")


def _duration(d):
    """'1us' as is; an int is femtoseconds."""
    if isinstance(d, int) and not isinstance(d, bool) and d >= 0:
        return f"{d}fs"
    if isinstance(d, str) and d.strip():
        return d.strip()
    raise ValueError(f"duration: expected text such as '1us' or an int of femtoseconds, got {d!r}")


def _as_statement(accessor):
    unknown = set(accessor) - {"cpu", "el", "secure", "guest", "priv", "debug"}
    if unknown:
        raise TypeError(f"unknown accessor keyword(s): {', '.join(sorted(unknown))} "
                        "(allowed: cpu, el, secure, guest, priv, debug)")
    if accessor.get("debug"):
        words = ["as", "debug"]
        if accessor.get("secure") is not None:
            words.append("secure" if accessor["secure"] else "nonsecure")
        return " ".join(words)
    words = ["as", f"cpu{int(accessor.get('cpu') or 0)}"]
    if accessor.get("el") is not None:
        if accessor["el"] not in (0, 1, 2, 3):
            raise ValueError(f"el: expected 0..3, got {accessor['el']!r}")
        words.append(f"el{accessor['el']}")
    if accessor.get("priv") is not None:
        words.append(accessor["priv"])
    if accessor.get("secure") is not None:
        words.append("secure" if accessor["secure"] else "nonsecure")
    if accessor.get("guest"):
        words.append("guest")
    return " ".join(words)
