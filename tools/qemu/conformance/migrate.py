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

    migrate.py --refuse QEMU ELF CPU [MACHINE-OPTIONS]

Refusals: the machine saved at the first point is loaded into a new QEMU
as saved (it must load) and then with one field of the strict model's
subsection (cpu/spe/strict) changed, or into a QEMU with another
spe-inflight or with spe-strict=off. Each changed stream must be refused: the destination exits
with status 1, not by a signal, having said why. Where each field lies is
read from the stream's own description of itself (the JSON vmdesc QEMU
appends), not assumed. One "RESULT refuse_<case>" line per case.
"""
import json
import os
import shutil
import struct
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


def reap():
    """Kill the QEMUs still running (a run that failed half way)."""
    for p in PROCS:
        if p.poll() is None:
            p.kill()
            p.wait()


def save(qmp, proc, state):
    """Stop the machine, save it to the file state and quit its QEMU."""
    qmp.cmd("stop")
    qmp.cmd("migrate", uri="file:" + state)
    qmp.migration_done()
    qmp.cmd("quit")
    proc.wait(timeout=TIMEOUT)


def incoming(argv, tmp, tag, state):
    """A new QEMU loading the file state: its process, serial and QMP."""
    proc, serial, qmp = start(argv, tmp, tag, True)
    qmp.cmd("migrate-incoming", uri="file:" + state)
    return proc, serial, qmp


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
        reap()


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
        save(qmp, proc, state)
        # what the source printed after the point, before it stopped
        rest = [x.rstrip("\r\n") for x in serial.readlines()]
        lines += rest
        in_time[k] = f"POINT-PASSED {k}" not in rest
        n += 1
        proc, serial, qmp = incoming(argv, tmp, f"q{n}", state)
        qmp.migration_done()
        qmp.cmd("cont")
    return lines, proc.wait(timeout=TIMEOUT), in_time


def result(name, ok, detail=""):
    print(f"RESULT {name} {'PASS' if ok else 'FAIL'}" + (f" {detail}" if detail else ""))


QEMU_VM_SUBSECTION = 0x05
QEMU_VM_VMDESCRIPTION = 0x06
STRICT = "cpu/spe/strict"


def vmdesc(data):
    """The JSON description QEMU appends to a stream, its last part: a
    QEMU_VM_VMDESCRIPTION byte, the JSON's length and the JSON."""
    k = len(data)
    while True:
        k = data.rfind(b"{", 0, k)
        if k < 5:
            raise RuntimeError("no vmdesc at the end of the stream")
        n = struct.unpack(">I", data[k - 4:k])[0]
        if data[k - 5] == QEMU_VM_VMDESCRIPTION and k + n == len(data):
            return json.loads(data[k:])


def find_vmsd(desc, name):
    if isinstance(desc, dict):
        if desc.get("vmsd_name") == name:
            return desc
        desc = list(desc.values())
    if isinstance(desc, list):
        for v in desc:
            got = find_vmsd(v, name)
            if got:
                return got
    return None


def field_offsets(vmsd, base=0, prefix=""):
    """{path: (offset, size)} of every field of vmsd, elements of arrays as
    path[i]; offsets from the first field's."""
    out, off = {}, base
    for f in vmsd["fields"]:
        n, size = f.get("array_len", 1), f["size"]
        for i in range(n):
            path = prefix + f["name"] + (f"[{i}]" if "array_len" in f else "")
            if f.get("type") == "struct":
                out.update(field_offsets(f["struct"], off, path + "."))
            else:
                out[path] = (off, size)
            off += size
    return out


def strict_fields(data):
    """Where the first CPU's cpu/spe/strict fields lie in the stream."""
    sub = find_vmsd(vmdesc(data), STRICT)
    if not sub:
        raise RuntimeError(f"{STRICT} not described in the stream")
    name = STRICT.encode()
    head = bytes([QEMU_VM_SUBSECTION, len(name)]) + name + struct.pack(">I", sub["version"])
    at = data.find(head)
    if at < 0 or data.find(head, at + 1) >= 0:
        raise RuntimeError(f"not one {STRICT} subsection in the stream")
    return {k: (at + len(head) + o, n) for k, (o, n) in field_offsets(sub).items()}


def poke(data, fields, changes):
    out = bytearray(data)
    for name, value in changes.items():
        off, size = fields[name]
        out[off:off + size] = value.to_bytes(size, "big")
    return bytes(out)


def elements(fields, prefix):
    """How many elements the array field prefix ("a[0].buf[") has."""
    return sum(1 for k in fields if k.startswith(prefix))


def peek(data, fields, name):
    off, size = fields[name]
    return int.from_bytes(data[off:off + size], "big")


def load(argv, tmp, tag, state):
    """Load state into a new QEMU: (completed?, exit status or None, its
    stderr)."""
    try:
        proc, serial, qmp = incoming(argv, tmp, tag, state)
        try:
            qmp.migration_done()
            done = True
        except RuntimeError:
            done = False
        if done:
            qmp.cmd("quit")
        rc = proc.wait(timeout=TIMEOUT)
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
        done, rc = False, f"no exit ({e})"
    finally:
        reap()
    with open(os.path.join(tmp, tag + ".err"), errors="replace") as f:
        return done, rc, f.read()


def refusals(qemu, elf, cpu, mach):
    argv = qemu_argv(qemu, elf, cpu, mach)
    with tempfile.TemporaryDirectory() as tmp:
        state = os.path.join(tmp, "state")
        try:
            proc, serial, qmp = start(argv, tmp, "src", False)
            for line in serial:
                if line.startswith("MIGRATE-POINT"):
                    break
            else:
                raise RuntimeError("the program reached no MIGRATE-POINT")
            save(qmp, proc, state)
            with open(state, "rb") as f:
                data = f.read()
            fields = strict_fields(data)
        except (RuntimeError, OSError, subprocess.TimeoutExpired, KeyError, ValueError) as e:
            result("refuse_setup", False, str(e))
            return
        finally:
            reap()
        n = peek(data, fields, "spe_inflight")
        if not 2 <= n <= 16 or f"spe_q[{n - 1}].len" not in fields:
            result("refuse_setup", False, f"spe-inflight {n}: the cases want 2 to 16")
            return
        # the model's limits, from the stream's description of its arrays
        flight = elements(fields, "spe_q[0].buf[")
        runs = elements(fields, "spe_held.run[") // 4     # pa, attrs, off, len
        held = elements(fields, "spe_held.buf[")
        done, rc, err = load(argv, tmp, "as-saved", state)
        ok = done and rc == 0
        result("refuse_none", ok, "" if ok else
               f"the stream as saved: {'loaded' if done else 'refused'}, exit {rc}: "
               + " ".join(err.split())[-300:])
        # case: changed fields, or a CPU option for the destination; the
        # words the destination must say
        cases = [
            ("inflight", f"spe-inflight={8 if n != 8 else 4}",
             "spe-inflight must be the same on both sides"),
            ("strict_off", "spe-strict=off", "this CPU has spe-strict=off"),
            ("ring_head", {"env.spe.q_head": n}, f"record ring head {n},"),
            ("ring_len", {"env.spe.q_head": 0, "env.spe.q_len": n + 1},
             f"length {n + 1},"),
            ("ring_csync", {"env.spe.q_len": 0, "env.spe.q_csync": 1},
             "length 0, synchronized 1 do not fit"),
            ("flight_len", {f"spe_q[{n - 1}].len": flight + 1},
             f"record {n - 1} in flight is {flight + 1} bytes, more than {flight}"),
            ("held_runs", {"spe_held.n_runs": runs + 1}, f"{runs + 1} held runs"),
            ("held_len", {"spe_held.len": held + 1}, f"held runs of {held + 1} bytes"),
            ("held_run_len", {"spe_held.n_runs": 1, "spe_held.len": 16,
                              "spe_held.run[0].off": 8, "spe_held.run[0].len": 9},
             "held run 0 (9 bytes at 8) outside the 16 bytes held"),
            ("held_run_off", {"spe_held.n_runs": 1, "spe_held.len": 16,
                              "spe_held.run[0].off": 17, "spe_held.run[0].len": 0},
             "held run 0 (0 bytes at 17) outside the 16 bytes held"),
        ]
        for name, changes, words in cases:
            path, dest = state, argv
            if isinstance(changes, str):
                dest = qemu_argv(qemu, elf, f"{cpu},{changes}", mach)
            else:
                path = os.path.join(tmp, "state-" + name)
                with open(path, "wb") as f:
                    f.write(poke(data, fields, changes))
            done, rc, err = load(dest, tmp, name, path)
            said = " ".join(err.split())
            ok = not done and rc == 1 and words in said
            result(f"refuse_{name}", ok, "" if ok else
                   f"{'loaded' if done else 'refused'}, exit {rc}, want 1 and \"{words}\": {said[-300:]}")


def main(argv):
    if len(argv) > 1 and argv[1] == "--refuse":
        if len(argv) < 5:
            print(__doc__.strip(), file=sys.stderr)
            return 2
        refusals(argv[2], argv[3], argv[4], argv[5] if len(argv) > 5 else "")
        return 0
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
