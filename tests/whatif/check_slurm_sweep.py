#!/usr/bin/env python3
"""A sweep on a real scheduler: a single-node Slurm (Debian's slurm-wlm and munge) started in a
fresh temporary folder on this machine, the job array and dependent merge of docs/whatif.md
("Across machines: shards") submitted as written there, and the merged CSV compared with an
unsharded run byte for byte. munged, slurmctld and slurmd are stopped at the end, also on failure.
Usage: check_slurm_sweep.py PMUSIM (run from the source tree)."""
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

from checklib import PMUSIM, check, finish, run

TOOLS = ["munged", "mungekey", "slurmctld", "slurmd", "sbatch", "sinfo", "scancel"]
missing = [t for t in TOOLS if not shutil.which(t, path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")]
if missing:  # an install error, not a pass (scripts/install-deps.sh installs slurm-wlm and munge)
    print(f"FAIL: not installed: {', '.join(missing)} (scripts/install-deps.sh installs slurm-wlm and munge)")
    sys.exit(1)

tmp = tempfile.mkdtemp(prefix="pmusim-slurm-")
os.chmod(tmp, 0o755)  # slurmd's job steps read the sweep files from here
daemons = []          # Popen objects, stopped in reverse order
jobs = []
log = os.path.join(tmp, "logs")
os.makedirs(log)
for d in ("state", "spool", "out"):
    os.makedirs(os.path.join(tmp, d))


def sbin(name):
    return shutil.which(name, path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# A clean environment: no SLURM_* of an enclosing job, our configuration only.
env = {k: v for k, v in os.environ.items() if not k.startswith("SLURM_")}
conf = os.path.join(tmp, "slurm.conf")
env["SLURM_CONF"] = conf
env["SC_COPYRIGHT_MESSAGE"] = "DISABLE"
host = socket.gethostname().split(".")[0]  # slurmd names itself by the short host name
# The node claims 32 CPUs (config_overrides lets slurmd accept more than the hardware has) so the
# documented array's 16 tasks of 2 CPUs start at once: their points are tiny. With the real 2 CPUs
# the tasks run one after another and the test takes 80 s instead of 17.
user = subprocess.run(["id", "-un"], capture_output=True, text=True).stdout.strip()
munge_socket = os.path.join(tmp, "munge.sock")
with open(os.path.join(tmp, "plugstack.conf"), "w"):
    pass
with open(conf, "w") as f:
    f.write(f"""ClusterName=pmusimtest
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={munge_socket}
SlurmUser={user}
SlurmdUser={user}
StateSaveLocation={tmp}/state
SlurmdSpoolDir={tmp}/spool
SlurmctldPidFile={tmp}/slurmctld.pid
SlurmdPidFile={tmp}/slurmd.pid
SlurmctldLogFile={log}/slurmctld.log
SlurmdLogFile={log}/slurmd.log
PlugStackConfig={tmp}/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
NodeName={host} NodeAddr=127.0.0.1 CPUs=32 RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
""")


def start(name, argv):
    out = open(os.path.join(log, name + ".out"), "w")
    p = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=tmp)
    daemons.append((name, p))
    return p


def logs():
    text = ""
    for name in sorted(os.listdir(log)):
        with open(os.path.join(log, name), errors="replace") as f:
            text += f"--- {name} (last lines)\n" + "".join(f.readlines()[-15:])
    return text


def stop_all():
    if jobs:
        subprocess.run([sbin("scancel"), *jobs], env=env, capture_output=True, timeout=30)
    for name, p in reversed(daemons):
        if p.poll() is None:
            p.terminate()
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def wait_for(what, test, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if test():
            return True
        for name, p in daemons:
            if p.poll() is not None:
                raise RuntimeError(f"{name} exited with {p.returncode} while waiting for {what}\n{logs()}")
        time.sleep(0.2)
    raise RuntimeError(f"timed out after {seconds} s waiting for {what}\n{logs()}")


def doc_block_after(marker):
    """The text of the first ```sh block after `marker` in docs/whatif.md, and where it ends."""
    with open("docs/whatif.md") as f:
        doc = f.read()
    at = doc.index(marker)
    m = re.compile(r"```sh\n(.*?)```", re.S).search(doc, at)
    return m.group(1), m.end()


try:
    # Munge with a fresh key and a socket of its own.
    key = os.path.join(tmp, "munge.key")
    subprocess.run([sbin("mungekey"), "--create", f"--keyfile={key}"], check=True, env=env)
    start("munged", [sbin("munged"), "--foreground", "--force", f"--key-file={key}", f"--socket={munge_socket}",
                     f"--pid-file={tmp}/munged.pid", f"--seed-file={tmp}/munged.seed", f"--log-file={log}/munged.log"])
    wait_for("munged's socket", lambda: os.path.exists(munge_socket), 20)
    start("slurmctld", [sbin("slurmctld"), "-D", "-c", "-f", conf])
    start("slurmd", [sbin("slurmd"), "-D", "-f", conf])

    def node_idle():
        r = subprocess.run([sbin("sinfo"), "-h", "-N", "-o", "%T"], capture_output=True, text=True, env=env)
        return r.returncode == 0 and r.stdout.strip() == "idle"
    wait_for("the node to be idle", node_idle, 60)

    # The sweep: 6 points of a 10 us scenario; 16 shards as in the documented array (10 are empty).
    with open(os.path.join(tmp, "tiny.yaml"), "w") as f:
        f.write("name: tiny\nparams:\n  dsu_clock: 1GHz\n  cpu_clock: 2GHz\nplatform: arm-default\nset:\n"
                "  clocks.dsu0.frequency: ${dsu_clock}\n  clocks.cpu0.frequency: ${cpu_clock}\nduration: 10us\n")
    with open(os.path.join(tmp, "study.yaml"), "w") as f:
        f.write("scenario: tiny.yaml\ngrid:\n  dsu_clock: [250MHz, 500MHz, 1GHz]\n  cpu_clock: [1GHz, 2GHz]\n"
                "stats: [dsu0.cycles, cpu0.cpu_cycles]\n")
    single = run("sweep", os.path.join(tmp, "study.yaml"), "-o", os.path.join(tmp, "single"), env=env)
    check(single.returncode == 0, f"the unsharded run exits 0 ({single.stderr})")

    # The documented job script and merge, with the binary's path (build/pmusim) as built here.
    array_script, end = doc_block_after("A Slurm job array")
    with open("docs/whatif.md") as f:
        merge_line = re.compile(r"```sh\n(sbatch --dependency.*?)\n```", re.S).search(f.read(), end).group(1)
    check(array_script.startswith("#!/bin/bash\n#SBATCH --array=0-15\n"), f"the documented array script ({array_script!r})")
    array_script = array_script.replace("build/pmusim", PMUSIM)
    merge_line = merge_line.replace("build/pmusim", PMUSIM)
    script = os.path.join(tmp, "array.sh")
    with open(script, "w") as f:
        f.write(array_script)
    r = subprocess.run([sbin("sbatch"), "--parsable", "-o", f"{log}/array-%A_%a.out", script], capture_output=True,
                       text=True, env=env, cwd=tmp, timeout=30)
    check(r.returncode == 0, f"sbatch of the array ({r.stderr})")
    array_id = r.stdout.strip().split(";")[0]
    jobs.append(array_id)
    # The merge line as documented ($JOBID is the array's), waited for with --wait.
    merge_argv = ["bash", "-c", merge_line.replace("sbatch ", f"sbatch --wait --parsable -o {log}/merge-%j.out ", 1)]
    r = subprocess.run(merge_argv, capture_output=True, text=True, env={**env, "JOBID": array_id}, cwd=tmp, timeout=150)
    check(r.returncode == 0, f"the dependent merge job completed with exit 0 ({r.returncode} {r.stderr}\n{logs()})")
    merged = os.path.join(tmp, "out", "merged.csv")
    want = open(os.path.join(tmp, "single", "results.csv"), "rb").read()
    got = open(merged, "rb").read() if os.path.exists(merged) else b""
    check(got == want and want.count(b"\n") == 7, f"the merged file equals the unsharded run byte for byte ({got!r} vs {want!r})")
    shards = sorted(d for d in os.listdir(os.path.join(tmp, "out")) if d.startswith("shard"))
    check(len(shards) == 16, f"16 array tasks wrote their shard ({shards})")
except RuntimeError as e:
    check(False, str(e))
finally:
    stop_all()
still = [name for name, p in daemons if p.poll() is None]
check(not still, f"every daemon stopped ({still})")
shutil.rmtree(tmp, ignore_errors=True)
finish("slurm sweep")
