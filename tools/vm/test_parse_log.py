#!/usr/bin/env python3
"""Host unit tests of the VM harness's log parser (parse_log.py): every way a
guest can go wrong must come out as a failure, and a clean run as a pass.
Ends with "harness-parser: N passed, N failed, N skipped"."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import parse_log  # noqa: E402


def log(*lines):
    return [ln + "\n" for ln in lines]


BOOT = "@@SPE@@ boot 6.12 cpus=2"
DONE = "@@SPE@@ done"
# what the guest prints last: its kernel log, then "done"
DMESG = ["@@SPE@@ dmesg-begin", "[    0.000000] Booting Linux on physical CPU 0x0", "@@SPE@@ dmesg-end"]
END = DMESG + [DONE]


def statuses(res):
    out = {}
    for ln in res.lines:
        ok = ln.startswith("ok")
        name = ln.split(" - ", 1)[1].split(" # ")[0]
        skip = "# SKIP" in ln
        out[name] = "skip" if skip else ("pass" if ok else "fail")
    return out


class ParseLog(unittest.TestCase):
    def run_parse(self, lines, expected=None):
        res, _ = parse_log.parse(log(*lines), expected, "s")
        return res, statuses(res)

    def test_clean_run_passes(self):
        res, st = self.run_parse([BOOT, "@@SPE@@ begin a", "hello", "@@SPE@@ end a rc=0",
                                  "@@SPE@@ begin b", "@@SPE@@ end b rc=0", *END], ["a", "b"])
        self.assertEqual(res.nfail, 0)
        self.assertEqual(res.npass, 4)
        self.assertEqual(st["s/a"], "pass")

    def test_nonzero_exit_fails(self):
        res, st = self.run_parse([BOOT, "@@SPE@@ begin a", "FAIL: x", "@@SPE@@ end a rc=1", *END])
        self.assertEqual(st["s/a"], "fail")
        self.assertIn("FAIL: x", res.lines[0])

    def test_skip_and_timeout(self):
        _, st = self.run_parse([BOOT, "@@SPE@@ begin a", "SKIP: no spe", "@@SPE@@ end a rc=4",
                                "@@SPE@@ begin b", "@@SPE@@ end b rc=124", *END])
        self.assertEqual(st["s/a"], "skip")
        self.assertEqual(st["s/b"], "fail")

    def test_unexpected_skip_fails(self):
        lines = [BOOT, "@@SPE@@ begin a", "TAP version 13", "ok 1 c.one # SKIP FnE implemented",
                 "ok 2 c.two # SKIP no tracefs", "ok 3 c.three", "@@SPE@@ end a rc=0",
                 "@@SPE@@ begin b", "no spe here", "@@SPE@@ end b rc=4", *END]
        manifest = [("s", "a/c.one"), ("x*", "b")]
        res, _ = parse_log.parse(log(*lines), None, "s", expected_skips=manifest)
        st = statuses(res)
        self.assertEqual(st["s/a/c.one"], "skip")
        self.assertEqual(st["s/a/c.two"], "fail")
        self.assertIn("unexpected skip: no tracefs", res.lines[1])
        self.assertEqual(st["s/b"], "fail")
        self.assertEqual((res.npass, res.nfail, res.nskip), (3, 2, 1))
        # Without a manifest a skip stays a skip.
        res, _ = parse_log.parse(log(*lines), None, "s")
        self.assertEqual((res.nfail, res.nskip), (0, 3))

    @staticmethod
    def load_manifest(text):
        """load_expected_skips() of a manifest file holding text."""
        import tempfile
        with tempfile.NamedTemporaryFile("w", suffix=".skips", delete=False) as f:
            f.write(text)
        try:
            return parse_log.load_expected_skips(f.name)
        finally:
            os.unlink(f.name)

    def test_skip_manifest_needs_a_reason(self):
        with self.assertRaises(ValueError):
            self.load_manifest("# comment\ns\ta/c.*\tfeature absent\ns\tb\t\n")

    def test_whole_program_glob_refused(self):
        for case, ok in (("pcsr_test/*", False), ("*", False), ("**", False), ("?*", False),
                         ("pcsr_test*", False), ("pcsr_test/**", False), ("pcsr_test/?*", False),
                         ("pcsr_test/global.*", False), ("a/c.*", True),
                         ("kselftest/*: module_nospe.sh", True), ("b", True),
                         ("capture/cap.sve_*", True)):
            with self.subTest(case=case):
                if ok:
                    self.assertEqual(self.load_manifest(f"s\t{case}\tfeature absent\n"), [("s", case)])
                else:
                    with self.assertRaises(ValueError):
                        self.load_manifest(f"s\t{case}\tfeature absent\n")

    def test_every_case_skipped_fails(self):
        lines = [BOOT, "@@SPE@@ begin a", "TAP version 13", "ok 1 c.one # SKIP no spe",
                 "@@SPE@@ end a rc=0", "@@SPE@@ begin b", "@@SPE@@ end b rc=4", *END]
        for manifest in (None, [("s", "a/c.one"), ("s", "b")]):
            with self.subTest(manifest=manifest):
                res, _ = parse_log.parse(log(*lines), None, "s", expected_skips=manifest)
                st = statuses(res)
                self.assertEqual(st["s/ran a test"], "fail")
                self.assertEqual(st["s/guest completed"], "pass")
        # one case passing is enough
        _, st = self.run_parse([BOOT, "@@SPE@@ begin a", "@@SPE@@ end a rc=4",
                                "@@SPE@@ begin b", "@@SPE@@ end b rc=0", *END])
        self.assertNotIn("s/ran a test", st)

    def test_qemu_status_after_the_last_line_fails(self):
        lines = log(BOOT, "@@SPE@@ begin a", "@@SPE@@ end a rc=0", *END)
        for status, want in ((0, "pass"), (None, "pass"), (134, "fail")):
            with self.subTest(status=status):
                res, _ = parse_log.parse(lines, ["a"], "s", qemu_status=status)
                self.assertEqual(statuses(res)["s/guest completed"], want)
        res, _ = parse_log.parse(lines, ["a"], "s", qemu_status=134)
        self.assertIn("QEMU exited with status 134", res.lines[-1])
        # a hang at power-off: the host's note, not the status of its kill
        res, _ = parse_log.parse(lines, ["a"], "s", "the host stopped the guest after 9s",
                                 qemu_status=143)
        self.assertEqual(statuses(res)["s/guest completed"], "fail")
        self.assertIn("the host stopped the guest", res.lines[-1])

    def test_kernel_log_without_timestamps_is_read(self):
        _, st = self.run_parse([BOOT, "@@SPE@@ begin a", "@@SPE@@ end a rc=0",
                                "@@SPE@@ dmesg-begin", "Booting Linux on physical CPU 0x0",
                                "Internal error: Oops: 0000000096000006 [#1] SMP",
                                "@@SPE@@ dmesg-end", DONE])
        self.assertEqual(st["s/kernel log clean"], "fail")
        _, st = self.run_parse([BOOT, "@@SPE@@ begin a", "@@SPE@@ end a rc=0",
                                "@@SPE@@ dmesg-begin", "Booting Linux on physical CPU 0x0",
                                "@@SPE@@ dmesg-end", DONE])
        self.assertEqual(st["s/kernel log clean"], "pass")

    def test_no_kernel_log_dump_fails(self):
        for dump in ([], ["@@SPE@@ dmesg-begin", "@@SPE@@ dmesg-end"]):
            with self.subTest(dump=dump):
                res, st = self.run_parse([BOOT, "@@SPE@@ begin a", "@@SPE@@ end a rc=0", *dump, DONE])
                self.assertEqual(st["s/kernel log clean"], "fail")
                self.assertIn("nothing was checked", " ".join(res.lines))

    def splat(self, text):
        _, st = self.run_parse([BOOT, "@@SPE@@ begin a", f"[   12.345678] {text}",
                                "@@SPE@@ end a rc=0", *END])
        return st["s/kernel log clean"]

    def test_each_splat_fails(self):
        for text in ["Internal error: Oops: 0000000096000006 [#1] SMP",
                     "BUG: KASAN: slab-out-of-bounds in foo+0x10/0x20",
                     "WARNING: CPU: 0 PID: 1 at drivers/x.c:10 f+0x1/0x2",
                     "------------[ cut here ]------------",
                     "Kernel panic - not syncing: sysrq triggered crash",
                     "WARNING: possible circular locking dependency detected",
                     "BUG: sleeping function called from invalid context at x.c:1",
                     "UBSAN: shift-out-of-bounds in x.c:1:2",
                     "INFO: task insmod:99 blocked for more than 120 seconds.",
                     "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
                     "Unable to handle kernel NULL pointer dereference at virtual address 0",
                     "WARNING: suspicious RCU usage",
                     "ODEBUG: free active (active state 0) object: 0000 object type: timer_list",
                     "=============================== [ BUG: bad unlock balance detected! ]"]:
            with self.subTest(text=text):
                self.assertEqual(self.splat(text), "fail")

    def test_ordinary_kernel_lines_are_clean(self):
        for text in ["arm_spe_perf: loading out-of-tree module taints kernel.",
                     "rcu: \tRCU lockdep checking is enabled.",
                     "kmemleak: Kernel memory leak detector initialized (mem pool available: 15000)",
                     "arm_spe_perf: no CPU implements FEAT_SPE; not loading"]:
            self.assertEqual(self.splat(text), "pass")

    def test_userspace_warning_is_not_a_splat(self):
        _, st = self.run_parse([BOOT, "@@SPE@@ begin a", "WARNING: user text",
                                "@@SPE@@ end a rc=0", *END])
        self.assertEqual(st["s/kernel log clean"], "pass")

    def test_kmemleak_report_fails(self):
        _, st = self.run_parse([BOOT, DONE.replace("done", "kmemleak-begin"),
                                "unreferenced object 0xffff000012345678 (size 64):",
                                "@@SPE@@ kmemleak-end", *END])
        self.assertEqual(st["s/kernel log clean"], "fail")

    def test_splat_in_dmesg_dump_fails(self):
        _, st = self.run_parse([BOOT, "@@SPE@@ dmesg-begin",
                                "[    1.000000] WARNING: CPU: 1 PID: 0 at x.c:1 y",
                                "@@SPE@@ dmesg-end", DONE])  # its own dump
        self.assertEqual(st["s/kernel log clean"], "fail")

    def test_missing_end_and_not_run(self):
        res, st = self.run_parse([BOOT, "@@SPE@@ begin a", "partial"], ["a", "b"])
        self.assertEqual(st["s/a"], "fail")
        self.assertEqual(st["s/b"], "fail")
        self.assertEqual(st["s/guest completed"], "fail")
        self.assertIn("no result line", " ".join(res.lines))

    def test_never_booted(self):
        _, st = self.run_parse(["qemu: some error"], ["a"])
        self.assertEqual(st["s/a"], "fail")
        self.assertEqual(st["s/guest completed"], "fail")

    def test_host_note_is_reported(self):
        res, _ = parse_log.parse(log(BOOT, "@@SPE@@ begin a"), ["a"], "s", "the host stopped it")
        self.assertIn("the host stopped it", next(x for x in res.lines if "guest completed" in x))

    def test_nested_tap_counts_each_case(self):
        res, st = self.run_parse([BOOT, "@@SPE@@ begin k", "TAP version 13", "1..3",
                                  "ok 1 global.one", "not ok 2 global.two",
                                  "ok 3 global.three # SKIP needs root",
                                  "# Totals: pass:1 fail:1", "@@SPE@@ end k rc=1", *END])
        self.assertEqual(st["s/k/global.one"], "pass")
        self.assertEqual(st["s/k/global.two"], "fail")
        self.assertEqual(st["s/k/global.three"], "skip")
        self.assertEqual(res.npass, 3)  # one + kernel log + completed

    def test_nested_tap_all_ok_but_exit_failed(self):
        _, st = self.run_parse([BOOT, "@@SPE@@ begin k", "ok 1 one", "@@SPE@@ end k rc=1", *END])
        self.assertEqual(st["s/k"], "fail")

    def test_spe_violation_fails(self):
        res, st = self.run_parse([BOOT, "@@SPE@@ begin a", "@@SPE@@ end a rc=0",
                                  "qemu-system-aarch64: spe-violation: CPU1: 000 3.6.1: "
                                  "PMBLIMITR_EL1 written while profiling is enabled", *END], ["a"])
        self.assertEqual(st["s/a"], "pass")
        self.assertEqual(st["s/emulated SPE rules kept"], "fail")
        self.assertTrue(any("CPU1: 000 3.6.1" in ln for ln in res.lines))

    def test_crlf_console(self):
        _, st = self.run_parse([BOOT + "\r", "@@SPE@@ begin a\r", "@@SPE@@ end a rc=0\r"] + [x + "\r" for x in END])
        self.assertEqual(st["s/a"], "pass")
        self.assertEqual(st["s/guest completed"], "pass")


if __name__ == "__main__":
    r = unittest.TextTestRunner(verbosity=2).run(unittest.defaultTestLoader.loadTestsFromTestCase(ParseLog))
    nfail = len(r.failures) + len(r.errors)
    print(f"harness-parser: {r.testsRun - nfail - len(r.skipped)} passed, {nfail} failed, {len(r.skipped)} skipped")
    sys.exit(1 if nfail else 0)
