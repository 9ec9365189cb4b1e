#!/usr/bin/env python3
"""A non-C++ client of `pmusim serve`: drives the model read by read, deciding
each next access from the last answer, as a driver walking registers does.
Usage: serve_client.py PATH_TO_PMUSIM"""
import subprocess
import sys


class Session:
    def __init__(self, pmusim, platform="arm-default"):
        self.proc = subprocess.Popen([pmusim, "serve", "--platform", platform], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1,
                                     env={"SC_COPYRIGHT_MESSAGE": "DISABLE"})

    def ask(self, statement):
        self.proc.stdin.write(statement + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().rstrip("\n")
        if not answer:
            raise SystemExit(f"no answer to {statement!r}")
        return answer

    def close(self):
        self.proc.stdin.close()
        return self.proc.wait(timeout=30)


def expect(got, want, what):
    if got != want:
        raise SystemExit(f"FAIL {what}: got {got!r}, want {want!r}")


def main():
    s = Session(sys.argv[1])
    # Feature discovery decides what comes next, as Linux does with ID_AA64PFR0_EL1.
    expect(s.ask("as cpu0 el1"), "OK", "as")
    answer = s.ask("read ID_AA64PFR0_EL1")
    assert answer.startswith("OK 0x"), answer
    amu = (int(answer.split()[1], 16) >> 44) & 0xF
    expect(amu, 2, "AMU field of arm-default (AMUv1p1)")
    # Firmware: set CPTR_EL3.TAM, then read it back and clear it again based on what came back.
    s.ask("as cpu0 el3")
    expect(s.ask("write CPTR_EL3 0x40000000"), "OK", "write CPTR_EL3")
    value = int(s.ask("read CPTR_EL3").split()[1], 16)
    expect(value >> 30 & 1, 1, "TAM set")
    expect(s.ask(f"write CPTR_EL3 {value & ~(1 << 30):#x}"), "OK", "clear TAM")
    expect(s.ask("read CPTR_EL3"), "OK 0x0", "TAM cleared")
    # Outcomes are answered, never fatal; bad statements get ERR and the session goes on.
    s.ask("as cpu0 el1")
    expect(s.ask("read HCR_EL2"), "UNDEFINED", "EL2 register at EL1")
    expect(s.ask("read HCR_EL2 -> undefined"), "OK", "expected outcome")
    assert s.ask("read CPTR_EL3 == 0x1 -> ok").startswith("FAIL"), "wrong expectation must FAIL"
    assert s.ask("frobnicate").startswith("ERR "), "unknown statement must be ERR"
    assert s.ask("read NO_SUCH_REG").startswith("ERR "), "unknown register must be ERR"
    expect(s.ask("read32 0x10"), "ERROR", "unmapped address")
    expect(s.ask("write64 0x80000000 0x1122334455667788"), "OK", "memory write")
    expect(s.ask("read64 0x80000000"), "OK 0x1122334455667788", "memory read")
    # Time moves only with run: 2000 cycles of a 2 GHz CPU take 1 us.
    expect(s.ask("run 2000 cycles of cpu0"), "OK", "run")
    expect(s.ask("param clocks.cpu0.frequency"), "OK 2GHz", "param")
    expect(s.ask("expect irq dsu0 low"), "OK", "expect irq")
    # Comments and blank lines get no answer: the next answer belongs to the next statement.
    s.proc.stdin.write("# a comment\n\n")
    expect(s.ask("read32 0x80000004"), "OK 0x11223344", "answers stay in step")
    expect(s.close(), 0, "exit status")
    print("serve client: 1 passed, 0 failed")


if __name__ == "__main__":
    main()
