"""What the GDB tests share: the ELF's symbols, pmusim started with its stub (`--gdb 0
--gdb-wait`, port read from its stderr, killed after 60 s whatever happens) and GDB in batch mode
against it. Every wait is bounded."""
import re
import subprocess
import sys
import threading


def fail(msg, *texts):
    print("FAIL: " + msg)
    for t in texts:
        print("----\n" + t)
    sys.exit(1)


def symbols(nm, elf):
    table = {}
    for line in subprocess.run([nm, elf], stdout=subprocess.PIPE, text=True, check=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3:
            table[parts[2]] = int(parts[0], 16)
    return table


def labelled_sections(text):
    """GDB's output split at the `echo @@NAME` markers of labelled_commands: NAME -> what followed."""
    sections = {}
    for part in text.split("@@")[1:]:
        name, _, body = part.partition("\n")
        sections[name] = body
    return sections


def labelled_commands(breaks, checks):
    """Breakpoints at BREAKS (addresses), then each (NAME, command) of CHECKS after an `echo @@NAME`."""
    commands = [f"break *{a:#x}" for a in breaks]
    for name, c in checks:
        commands += [f"echo @@{name}\\n", c]
    return commands


class Stub:
    """pmusim ARGS with its GDB stub; `port` once it listens."""

    def __init__(self, args, env=None, cwd=None):
        self.sim = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd)
        self.stderr_lines = []
        self.timer = threading.Timer(60, self.sim.kill)
        self.timer.start()
        self.port = None
        for line in self.sim.stderr:
            self.stderr_lines.append(line)
            m = re.search(r"GDB stub on 127\.0\.0\.1:(\d+)", line)
            if m:
                self.port = int(m.group(1))
                break
        if self.port is None:
            self.timer.cancel()
            fail("pmusim printed no GDB port", "".join(self.stderr_lines), self.sim.stdout.read())
        self.rest = threading.Thread(target=lambda: self.stderr_lines.extend(self.sim.stderr))
        self.rest.start()

    def gdb(self, gdb, elf, commands):
        """GDB in batch mode (on ELF unless it is None): connects, runs COMMANDS; returns its output."""
        args = [gdb, "-nx", "-batch"] + ([elf] if elf else [])
        for c in ["set pagination off", "set confirm off", f"target remote 127.0.0.1:{self.port}", *commands]:
            args += ["-ex", c]
        try:
            return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60).stdout
        except subprocess.TimeoutExpired as e:
            self.sim.kill()
            fail("gdb did not finish within 60 s", e.stdout or "")

    def finish(self, gdb_output):
        """Waits for pmusim's exit after GDB left; returns (exit code, stdout, stderr)."""
        try:
            out, _ = self.sim.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.sim.kill()
            out, _ = self.sim.communicate()
            fail("pmusim did not exit after GDB left", gdb_output, out)
        self.timer.cancel()
        self.rest.join(5)
        return self.sim.returncode, out, "".join(self.stderr_lines)
