#!/usr/bin/env python3
"""Migration check for the FEAT_SPE model (run.sh's migrated()).

    migrate.py QEMU ELF CPU [MACHINE-OPTIONS]

Runs the MODE_MIGRATE program (tests.c) twice on "-M virt,<MACHINE> -cpu
CPU": once straight through, and once migrated at each "MIGRATE-POINT k"
line it prints: the runner stops the machine (QMP stop), saves it to a
file (migrate file:), quits, starts a new QEMU with the same command line
and -incoming, loads the file and continues. The program waits at each
point, with profiling disabled, for half a second of virtual time, which
stops with the machine; "POINT-PASSED k" says it went on.

The run that was not migrated is the oracle: each "STATE <dump> <reg>
<value>" line must be the same in the migrated run. Prints one "RESULT
<name> PASS|FAIL [detail]" line per point (migrate_point_<k>: moved while
waiting there), per dump (migrate_state_<dump>: every STATE line of it
equal) and migrate_exit (the same exit status), the form run.sh reads.
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

TIMEOUT = 120           # seconds for a whole run, and for one wait
PROCS = []              # the QEMUs of the migrated run, killed if it fails


def qemu_argv(qemu, elf, cpu, mach):
    return [qemu, "-M", "virt" + ("," + mach if mach else ""), "-cpu", cpu,
            "-m", "256M", "-display", "none", "-nic", "none", "-monitor", "none",
            "-semihosting", "-kernel", elf]


def connect(path, proc):
    """A client of QEMU's unix socket at path, once QEMU has made it."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            return s
        except OSError:
            s.close()
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"QEMU did not open {path} (exit {proc.poll()})")
            time.sleep(0.02)


class Qmp:
    def __init__(self, path, proc):
        self.f = connect(path, proc).makefile("rw")
        self.f.readline()                       # the greeting
        self.cmd("qmp_capabilities")
        self.cmd("migrate-set-capabilities",
                 capabilities=[{"capability": "events", "state": True}])

    def cmd(self, name, **args):
        msg = {"execute": name}
        if args:
            msg["arguments"] = args
        self.f.write(json.dumps(msg) + "\n")
        self.f.flush()
        while True:
            line = self.f.readline()
            if not line:
                raise RuntimeError(f"QMP closed during {name}")
            r = json.loads(line)
            if "error" in r:
                raise RuntimeError(f"QMP {name}: {r['error'].get('desc')}")
            if "return" in r:
                return r["return"]

    def migration_done(self):
        """Block until a MIGRATION event says completed (or failed)."""
        while True:
            line = self.f.readline()
            if not line:
                raise RuntimeError("QMP closed during the migration")
            r = json.loads(line)
            if r.get("event") == "MIGRATION":
                status = r["data"]["status"]
                if status == "completed":
                    return
                if status in ("failed", "cancelled"):
                    raise RuntimeError(f"migration {status}")


def start(argv, tmp, tag, incoming):
    ser, mon = os.path.join(tmp, tag + ".ser"), os.path.join(tmp, tag + ".qmp")
    extra = ["-chardev", f"socket,id=ser0,path={ser},server=on,wait=on",
             "-serial", "chardev:ser0",
             "-qmp", f"unix:{mon},server=on,wait=off"]
    if incoming:
        extra += ["-incoming", "defer"]
    err = open(os.path.join(tmp, tag + ".err"), "w")
    proc = subprocess.Popen(argv + extra, stdin=subprocess.DEVNULL,
                            stdout=err, stderr=err)
    PROCS.append(proc)
    serial = connect(ser, proc).makefile("r", errors="replace", newline="\n")
    return proc, serial, Qmp(mon, proc)


def parse(lines):
    """STATE lines by dump, in order; points reached and passed."""
    dumps, reached, passed = {}, [], []
    for line in lines:
        w = line.split()
        if len(w) == 4 and w[0] == "STATE":
            dumps.setdefault(w[1], []).append((w[2], w[3]))
        elif len(w) == 2 and w[0] == "MIGRATE-POINT":
            reached.append(w[1])
        elif len(w) == 2 and w[0] == "POINT-PASSED":
            passed.append(w[1])
    return dumps, reached, passed


def straight(argv):
    out = subprocess.run(argv + ["-serial", "stdio"], stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, errors="replace",
                         timeout=TIMEOUT)
    return out.stdout.replace("\r", "").splitlines(), out.returncode


def migrated(argv, tmp):
    """The run moved at every point: its lines, exit status, and per point
    whether it was still waiting there when the machine stopped."""
    try:
        return run_points(argv, tmp)
    finally:
        for p in PROCS:
            if p.poll() is None:
                p.kill()
                p.wait()


def run_points(argv, tmp):
    lines, in_time, n = [], {}, 0
    proc, serial, qmp = start(argv, tmp, "q0", False)
    while True:
        line = serial.readline()
        if not line:
            break
        line = line.rstrip("\r\n")
        lines.append(line)
        w = line.split()
        if len(w) != 2 or w[0] != "MIGRATE-POINT":
            continue
        k, state = w[1], os.path.join(tmp, f"state{n}")
        qmp.cmd("stop")
        qmp.cmd("migrate", uri="file:" + state)
        qmp.migration_done()
        qmp.cmd("quit")
        # what the source printed after the point, before it stopped
        rest = [x.rstrip("\r\n") for x in serial.readlines()]
        lines += rest
        in_time[k] = f"POINT-PASSED {k}" not in rest
        proc.wait(timeout=TIMEOUT)
        n += 1
        proc, serial, qmp = start(argv, tmp, f"q{n}", True)
        qmp.cmd("migrate-incoming", uri="file:" + state)
        qmp.migration_done()
        qmp.cmd("cont")
    return lines, proc.wait(timeout=TIMEOUT), in_time


def result(name, ok, detail=""):
    print(f"RESULT {name} {'PASS' if ok else 'FAIL'}" + (f" {detail}" if detail else ""))


def main(argv):
    if len(argv) < 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    args = qemu_argv(argv[1], argv[2], argv[3], argv[4] if len(argv) > 4 else "")
    ref_lines, ref_rc = straight(args)
    ref, ref_points, _ = parse(ref_lines)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            got_lines, got_rc, in_time = migrated(args, tmp)
        except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
            print(f"# migrated run: {e}")
            for f in sorted(os.listdir(tmp)):
                if f.endswith(".err"):
                    for x in open(os.path.join(tmp, f)).read().splitlines()[-5:]:
                        print(f"# {f}: {x}")
            got_lines, got_rc, in_time = [], None, {}
    got, _, got_passed = parse(got_lines)
    if not ref_points:
        print("# the straight run reached no MIGRATE-POINT:")
        for x in ref_lines[-10:]:
            print(f"# {x}")
    for k in ref_points:
        result(f"migrate_point_{int(k, 16)}", in_time.get(k) is True and k in got_passed,
               "" if k in in_time else "not migrated there" if in_time.get(k) is None
               else "the source went on before it stopped")
    for dump, regs in ref.items():
        have = dict(got.get(dump, []))
        diff = [f"{r} {have.get(r, 'missing')} want {v}" for r, v in regs if have.get(r) != v]
        result(f"migrate_state_{dump}", not diff, "; ".join(diff))
    result("migrate_exit", got_rc == ref_rc, f"exit {got_rc}, straight {ref_rc}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
