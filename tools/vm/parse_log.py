#!/usr/bin/env python3
"""Turn a test guest's console log into TAP results for the host.

The guest (tools/vm/guest/init) frames each test with
"@@SPE@@ begin NAME" / "@@SPE@@ end NAME rc=N" and ends with
"@@SPE@@ done". This reads the log and reports, in TAP:
  - each test: its own sub-results when it printed TAP (kselftest
    harness), else one result from its exit status (0 pass, 4 skip as in
    kselftest, 124 timeout, anything else fail);
  - a test that began but never ended, or never began, as a failure;
  - "kernel log clean": fails on any oops, BUG, WARNING, panic, lockdep,
    KASAN, UBSAN, kmemleak or hung-task report in the kernel's log;
    The guest's dump of the kernel log (between dmesg-begin and dmesg-end)
    is read whole, timestamps or not; a guest that finished without that
    dump, or with an empty one, fails it (nothing was checked);
  - "guest completed": fails when the guest did not reach its last line
    (panic, hang, host timeout), or when QEMU exited with a status other
    than 0 after it (--qemu-status: an abort at power-off);
  - "ran a test", only when no case of the boot passed (every one skipped,
    or none ran): a failure, since such a boot proves nothing;
  - "emulated SPE rules kept", only when QEMU's strict FEAT_SPE model
    (spe-strict=on) wrote a "spe-violation: CPU<n>: <rule>: ..." line: the
    guest's driver broke a synchronization or ordering rule; a failure.
With --expected-skips FILE, every skip must be one the runner expected:
FILE has one entry a line, "SUITE_GLOB<TAB>CASE_GLOB<TAB>why it is
expected", matched (fnmatch) against the suite name and the case's name
below the suite; an unexpected skip is a failure naming its reason. A
CASE_GLOB names cases: its program part is literal and its case part
must not match a made-up case name ("*", "PROGRAM/*", "PROGRAM/?*" and the
like are refused), so that a manifest cannot let the case a boot exists
for skip.
The last line is "SUITE: N passed, N failed, N skipped"; the exit status is
1 when anything failed.
"""
import argparse
import fnmatch
import re
import sys

MARK = "@@SPE@@ "
KLOG = re.compile(r"^\[\s*\d+\.\d+\]\s?(.*)$")
# Patterns that make a kernel log dirty. Each names what it catches.
SPLATS = [
    (re.compile(r"\bBUG:"), "BUG"),
    (re.compile(r"\bOops\b"), "Oops"),
    (re.compile(r"Internal error:"), "Oops"),
    (re.compile(r"Unable to handle kernel"), "bad access"),
    (re.compile(r"^WARNING:|\] WARNING:|^-+\[ cut here \]"), "WARNING"),
    (re.compile(r"Kernel panic"), "panic"),
    (re.compile(r"possible (circular|recursive) locking|inconsistent lock state|"
                r"suspicious RCU usage|possible irq lock inversion|bad unlock balance|"
                r"held lock freed|DEBUG_LOCKS_WARN_ON|trying to register non-static key|"
                r"sleeping function called from invalid context|"
                r"scheduling while atomic"), "lockdep/atomic"),
    (re.compile(r"ODEBUG:"), "debugobjects"),
    (re.compile(r"KASAN:|kasan:.*report"), "KASAN"),
    (re.compile(r"UBSAN:"), "UBSAN"),
    (re.compile(r"unreferenced object 0x"), "kmemleak"),
    (re.compile(r"blocked for more than \d+ seconds|rcu.*detected stalls|soft lockup|hard LOCKUP"),
     "hang"),
    (re.compile(r"Call trace:"), "call trace"),
]
SPE_VIOLATION = re.compile(r"spe-violation: (CPU\d+: .*)$")
TAP_LINE = re.compile(r"^(not ok|ok)\s+(\d+)\s*-?\s*(.*?)(?:\s+#\s*(SKIP|TODO)\b\s*(.*))?$")


class Result:
    def __init__(self):
        self.lines = []
        self.npass = self.nfail = self.nskip = 0

    def add(self, status, name, why=""):
        n = len(self.lines) + 1
        if status == "pass":
            self.npass += 1
            self.lines.append(f"ok {n} - {name}")
        elif status == "skip":
            self.nskip += 1
            self.lines.append(f"ok {n} - {name} # SKIP {why or 'no reason given'}")
        else:
            self.nfail += 1
            self.lines.append(f"not ok {n} - {name}" + (f" # {why}" if why else ""))


def splats_in(lines):
    found = []
    for ln in lines:
        m = KLOG.match(ln)
        text = m.group(1) if m else None
        if text is None:
            # A panic's last words may lack a timestamp on some consoles.
            if "Kernel panic" in ln:
                found.append(("panic", ln.strip()))
            continue
        for pat, what in SPLATS:
            if pat.search(text):
                found.append((what, ln.strip()))
                break
    return found


def load_expected_skips(path):
    """Read a skip manifest: a list of (suite glob, case glob)."""
    entries = []
    with open(path) as f:
        for ln in f:
            if not ln.strip() or ln.startswith("#"):
                continue
            fields = ln.rstrip("\n").split("\t")
            if len(fields) < 3 or not fields[2].strip():
                raise ValueError(f"{path}: want SUITE<TAB>CASE<TAB>WHY: {ln.strip()}")
            case = fields[1]
            if names_whole_program(case):
                raise ValueError(f"{path}: '{case}' lets a whole program skip: name its cases")
            entries.append((fields[0], case))
    return entries


def names_whole_program(case):
    """Would the CASE_GLOB let any case of a program skip? Its program part
    (before the first "/", or all of it) must be literal, and its case part
    must not match a name no test has."""
    prog, _, rest = case.partition("/")
    if any(ch in prog for ch in "*?["):
        return True
    return any(fnmatch.fnmatchcase(f"{prog}/{made_up}", case)
               for made_up in ("zz.made_up_case", "global.zz_made_up"))


def skip_expected(entries, suite, case):
    return any(fnmatch.fnmatchcase(suite, s) and fnmatch.fnmatchcase(case, c)
               for s, c in entries)


def judge_skips(res, suite, entries):
    """Turn every skip the manifest does not list into a failure."""
    for i, ln in enumerate(res.lines):
        m = re.match(r"^ok (\d+) - (.*?) # SKIP (.*)$", ln)
        if not m or skip_expected(entries, suite, m.group(2)[len(suite) + 1:]):
            continue
        res.nskip -= 1
        res.nfail += 1
        res.lines[i] = f"not ok {m.group(1)} - {m.group(2)} # unexpected skip: {m.group(3)}"


def parse(log_lines, expected, suite, host_note=None, expected_skips=None, qemu_status=None):
    res = Result()
    tests = {}
    order = []
    cur = None
    done = False
    booted = False
    klines = []
    dmesg_lines = None  # lines of the guest's kernel log dump, None: no dump
    violations = []
    in_block = None  # "dmesg" / "kmemleak"
    for raw in log_lines:
        ln = raw.rstrip("\r\n").replace("\r", "")
        v = SPE_VIOLATION.search(ln)
        if v:
            violations.append(v.group(1))
            continue
        idx = ln.find(MARK)
        if idx >= 0:
            words = ln[idx + len(MARK):].split()
            if not words:
                continue
            kind = words[0]
            if kind == "boot":
                booted = True
            elif kind == "begin" and len(words) > 1:
                cur = words[1]
                tests[cur] = {"out": [], "rc": None}
                order.append(cur)
            elif kind == "end" and len(words) > 2 and words[1] in tests:
                tests[words[1]]["rc"] = int(words[2].split("=", 1)[1])
                cur = None
            elif kind in ("dmesg-begin", "kmemleak-begin"):
                in_block = kind.split("-")[0]
                if in_block == "dmesg":
                    dmesg_lines = 0
            elif kind in ("dmesg-end", "kmemleak-end"):
                in_block = None
            elif kind == "done":
                done = True
            continue
        if in_block == "kmemleak":
            klines.append("[    0.000000] " + ln)
            continue
        if in_block == "dmesg":
            # every line of the dump is the kernel's, with a timestamp or
            # without one (printk.time=0, no CONFIG_PRINTK_TIME)
            if ln.strip():
                dmesg_lines += 1
                klines.append(ln if KLOG.match(ln) else "[    0.000000] " + ln)
            continue
        if KLOG.match(ln):
            klines.append(ln)
        if cur is not None:
            tests[cur]["out"].append(ln)

    for name in expected or order:
        t = tests.get(name)
        if t is None:
            res.add("fail", f"{suite}/{name}", "not run: the guest never reached it")
            continue
        sub = [TAP_LINE.match(x) for x in t["out"]]
        sub = [m for m in sub if m]
        if t["rc"] is None:
            for m in sub:
                report_sub(res, suite, name, m)
            res.add("fail", f"{suite}/{name}", "no result line: the guest died or hung during it")
            continue
        if sub:
            for m in sub:
                report_sub(res, suite, name, m)
            if t["rc"] not in (0, 4) and all(m.group(1) == "ok" for m in sub):
                res.add("fail", f"{suite}/{name}", f"exit status {t['rc']} with no failing case")
            continue
        rc = t["rc"]
        if rc == 0:
            res.add("pass", f"{suite}/{name}")
        elif rc == 4:
            why = next((x.strip() for x in reversed(t["out"]) if x.strip()), "")
            res.add("skip", f"{suite}/{name}", why)
        elif rc == 124:
            res.add("fail", f"{suite}/{name}", "timed out in the guest")
        else:
            last = next((x.strip() for x in reversed(t["out"]) if x.strip()), "")
            res.add("fail", f"{suite}/{name}", f"exit status {rc}: {last}"[:200])

    real_pass = res.npass
    sp = splats_in(klines)
    if sp:
        kinds = sorted({w for w, _ in sp})
        res.add("fail", f"{suite}/kernel log clean", f"{', '.join(kinds)}: {sp[0][1]}"[:300])
    elif done and not dmesg_lines:
        res.add("fail", f"{suite}/kernel log clean",
                "the guest dumped no kernel log: nothing was checked" if dmesg_lines is None
                else "the guest's kernel log dump was empty: nothing was checked")
    else:
        res.add("pass", f"{suite}/kernel log clean")
    if violations:
        res.add("fail", f"{suite}/emulated SPE rules kept",
                f"{len(violations)} spe-violation line(s): {violations[0]}"[:300])
    if not booted:
        why = host_note or "the guest never started its init"
        res.add("fail", f"{suite}/guest completed", why)
    elif not done:
        res.add("fail", f"{suite}/guest completed", host_note or "the guest stopped before its last line")
    elif host_note or qemu_status:
        # the guest's last line came, then QEMU failed or hung at power-off:
        # said as the host saw it (its note), else by QEMU's status
        why = host_note or f"QEMU exited with status {qemu_status}"
        res.add("fail", f"{suite}/guest completed", f"{why}, after the guest's last line")
    else:
        res.add("pass", f"{suite}/guest completed")
    if expected_skips is not None:
        judge_skips(res, suite, expected_skips)
    if not real_pass:
        res.add("fail", f"{suite}/ran a test",
                f"no case passed ({res.nskip} skipped): this boot proved nothing")
    return res, sp


def report_sub(res, suite, name, m):
    status, _, desc, directive, reason = m.groups()
    full = f"{suite}/{name}/{desc.strip()}"
    if status == "ok" and directive == "SKIP":
        res.add("skip", full, reason)
    elif status == "ok":
        res.add("pass", full)
    else:
        res.add("fail", full)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log")
    ap.add_argument("--suite", default="vm")
    ap.add_argument("--list", help="the guest's test list: every test in it must report")
    ap.add_argument("--host-note", help="why the host stopped the guest, if it did")
    ap.add_argument("--expected-skips", help="the skip manifest: any other skip fails")
    ap.add_argument("--qemu-status", type=int, help="QEMU's exit status (0: a clean exit)")
    a = ap.parse_args()
    skips = load_expected_skips(a.expected_skips) if a.expected_skips else None
    expected = None
    if a.list:
        expected = []
        with open(a.list) as f:
            for ln in f:
                if ln.strip() and not ln.startswith("#"):
                    expected.append(ln.split("\t", 1)[0])
    with open(a.log, errors="replace") as f:
        res, sp = parse(f, expected, a.suite, a.host_note, skips, a.qemu_status)
    for w, ln in sp[:20]:
        print(f"# kernel {w}: {ln}")
    print("TAP version 13")
    print(f"1..{len(res.lines)}")
    for ln in res.lines:
        print(ln)
    print(f"{a.suite}: {res.npass} passed, {res.nfail} failed, {res.nskip} skipped")
    return 1 if res.nfail else 0


if __name__ == "__main__":
    sys.exit(main())
