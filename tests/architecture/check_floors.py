#!/usr/bin/env python3
"""The floors of docs/architecture.md, checked on the source tree.

  models/                 the shared models: include nothing of iss/, vp/ or tb/
  iss/                    the CPU: includes models/ and iss/ only (its host is the interface
                          iss/cpu_host.h), nothing of vp/ or tb/
  vp/                     the platform floor: includes models/, iss/ and vp/ only (vp/platform_iss.h
                          adapts a platform and its run record to the ISS's host interface)
  units, devices,         stand on models/, iss/ and vp/: include nothing of tb/
  embed/, include/pmusim/,
  debug/, linux/ (but the `pmusim linux` command, linux/linux_command.cpp)
  tb/                     the roof: may include anything

and models/unit.h keeps what every unit needs: at most 14 virtual functions of its own
(what only some units do is an optional capability, models/unit_capabilities.h), and embed/ holds
no YAML text: the library builds units and devices from their descriptors and typed options
(vp/platform_builder.h), so it neither uses yaml-cpp nor writes platform text (a string literal
with a platform file's key, such as "units:" or "type: ").

Usage: check_floors.py SOURCE_DIR            exit 1 and a line per violation when one is found
       check_floors.py SOURCE_DIR --self-test plants each violation in a scratch tree: each must fail
"""
import os
import re
import shutil
import sys
import tempfile

MAX_UNIT_VIRTUALS = 14
# The roof's own files outside tb/: the `pmusim linux` command runs a sequence runner.
ROOF_FILES = {"linux/linux_command.cpp"}
# Forwarding headers at the old tb/ paths (TEAM.md) are tb/ files: they are the roof's.
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def unit_folders(root):
    """Folders with a register.cpp: the units (top level) and the devices (devices/NAME)."""
    out = []
    for top in sorted(os.listdir(root)):
        if os.path.isfile(os.path.join(root, top, "register.cpp")):
            out.append(top + "/")
    devices = os.path.join(root, "devices")
    if os.path.isdir(devices):
        for d in sorted(os.listdir(devices)):
            if os.path.isfile(os.path.join(devices, d, "register.cpp")):
                out.append("devices/" + d + "/")
    return out


def sources(root, folder):
    base = os.path.join(root, folder)
    for dirpath, _, files in os.walk(base):
        for f in sorted(files):
            if f.endswith((".h", ".hpp", ".cpp")):
                path = os.path.join(dirpath, f)
                yield os.path.relpath(path, root).replace(os.sep, "/"), path


def includes(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    for m in INCLUDE.finditer(text):
        yield text.count("\n", 0, m.start()) + 1, m.group(1)


def include_violations(root):
    out = []
    below_tb = ["models/", "vp/", "iss/", "embed/", "include/pmusim/", "debug/", "linux/"] + unit_folders(root)
    for folder in below_tb:
        for rel, path in sources(root, folder):
            if rel in ROOF_FILES:
                continue
            for line, inc in includes(path):
                if inc.startswith("tb/"):
                    out.append(f"{rel}:{line}: includes {inc}: nothing below tb/ includes a tb/ header")
                elif folder == "models/" and inc.startswith(("vp/", "iss/")):
                    out.append(f"{rel}:{line}: includes {inc}: models/ stands below the ISS and the platform floor vp/")
                elif folder == "iss/" and "/" in inc and not inc.startswith(("models/", "iss/")):
                    out.append(f"{rel}:{line}: includes {inc}: the ISS stands on models/ and its host interface "
                               "(iss/cpu_host.h) only, not on the platform floor vp/ or above")
                elif folder == "vp/" and "/" in inc and not inc.startswith(("models/", "iss/", "vp/")):
                    out.append(f"{rel}:{line}: includes {inc}: the platform floor depends on models/ and iss/ only")
    return out


def unit_virtuals(root):
    """The names of the virtual functions models/unit.h declares (comments stripped)."""
    with open(os.path.join(root, "models", "unit.h"), encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.findall(r"\bvirtual\b[^;{(]*?\b(~?\w+)\s*\(", text)


def virtual_violations(root):
    names = unit_virtuals(root)
    if len(names) > MAX_UNIT_VIRTUALS:
        return [f"models/unit.h: {len(names)} virtual functions ({', '.join(names)}), expected at most "
                f"{MAX_UNIT_VIRTUALS}: what only some units do is a capability (models/unit_capabilities.h)"]
    return []


# A platform file's keys as generated text would write them, each at the start of a line of a string
# literal: "units:\n", "  - name: dsu", "\n    type: dsu_clusterpmu" (not a message's "(clocks: ...)").
YAML_TEXT = re.compile(r'("|\\n)[ ]*(-[ ]+)?(units|clocks|cpus|memory|irq_lines|type|params|name|base|size):(\s|\\n|")')


def yaml_violations(root):
    out = []
    for rel, path in sources(root, "embed/"):
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        for n, text in enumerate(lines, 1):
            code = re.sub(r"//.*", "", text)
            if "yaml-cpp" in code or "YAML::" in code or YAML_TEXT.search(code):
                out.append(f"{rel}:{n}: YAML text in embed/: the library builds from descriptors and typed "
                           "options (vp/platform_builder.h), never from generated platform text")
    return out


def check(root):
    return include_violations(root) + virtual_violations(root) + yaml_violations(root)


def self_test(root):
    failures = []
    plants = {
        "a unit's register.cpp including tb/": ("amu/register.cpp", '#include "tb/sequence_runner.h"\n'),
        "a device including tb/": ("devices/gic/gic.cpp", '#include "tb/sweep.h"\n'),
        "the ISS including tb/": ("iss/aarch64_iss.cpp", '#include "tb/scenario.h"\n'),
        "the ISS including vp/": ("iss/engine_driver.cpp", '#include "vp/platform.h"\n'),
        "an ISS header including vp/": ("iss/cpu_identity.h", '#include "vp/platform_config.h"\n'),
        "the ISS including the debugger": ("iss/aarch64_iss.h", '#include "debug/trace.h"\n'),
        "models/ including the ISS": ("models/unit.cpp", '#include "iss/cpu_host.h"\n'),
        "embed/ including tb/": ("embed/model.cpp", '#include "tb/sequence_runner.h"\n'),
        "the platform floor including a unit": ("vp/platform.cpp", '#include "amu/amu.h"\n'),
        "models/ including the platform floor": ("models/unit.cpp", '#include "vp/platform.h"\n'),
        "embed/ writing platform YAML": ("embed/units.cpp",
                                         'static const char* t = "units:\\n  - name: dsu\\n";\n'),
        "embed/ using yaml-cpp": ("embed/devices.cpp", '#include <yaml-cpp/yaml.h>\n'),
    }
    keep = ["models", "vp", "iss", "embed", "include", "debug", "linux", "devices"] + [
        f.rstrip("/") for f in unit_folders(root) if not f.startswith("devices/")]
    for what, (rel, line) in list(plants.items()) + [("a fifteenth virtual in unit.h", (None, None))]:
        with tempfile.TemporaryDirectory() as scratch:
            for top in keep:
                src = os.path.join(root, top)
                if os.path.isdir(src):
                    shutil.copytree(src, os.path.join(scratch, top),
                                    ignore=shutil.ignore_patterns("*.o", "*.a", "build*"))
            if check(scratch):
                failures.append(f"the unplanted copy already fails: {check(scratch)[:3]}")
                break
            if rel is None:
                path = os.path.join(scratch, "models", "unit.h")
                text = open(path, encoding="utf-8").read()
                extra = "".join(f"    virtual void planted_{n}() {{}}\n" for n in range(MAX_UNIT_VIRTUALS + 1))
                text = text.replace("    virtual std::string type() const = 0;",
                                    extra + "    virtual std::string type() const = 0;", 1)
            else:
                path = os.path.join(scratch, rel)
                if not os.path.exists(path):
                    failures.append(f"{what}: {rel} does not exist to plant into")
                    continue
                text = line + open(path, encoding="utf-8").read()
            open(path, "w", encoding="utf-8").write(text)
            if not check(scratch):
                failures.append(f"{what} ({rel or 'models/unit.h'}) was not flagged")
    return failures


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = sys.argv[1]
    if "--self-test" in sys.argv[2:]:
        failures = self_test(root)
        for f in failures:
            print("self-test: " + f)
        return 1 if failures else 0
    violations = check(root)
    for v in violations:
        print(v)
    if not violations:
        print(f"floors hold; models/unit.h declares {len(unit_virtuals(root))} virtual functions "
              f"(at most {MAX_UNIT_VIRTUALS})")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
