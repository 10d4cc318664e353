#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host tests of btf-from-image.py on synthetic kernel images.

Each image is junk with BTF blobs laid out by hand from the kernel's
Documentation/bpf/btf.rst: struct btf_header { u16 magic 0xeB9F; u8
version 1; u8 flags; u32 hdr_len 24; u32 type_off, type_len, str_off,
str_len }, then the type and string sections, the string section
starting and ending with NUL. Ends with "btf-extract: N passed, N failed,
N skipped".
"""
import gzip
import os
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "btf-from-image.py")


def blob(types, strs, type_off=0, str_off=None):
    """A BTF blob: header, types, strings (str_off defaults to right after)."""
    if str_off is None:
        str_off = len(types)
    hdr = struct.pack("<HBBIIIII", 0xEB9F, 1, 0, 24, type_off, len(types), str_off, len(strs))
    return hdr + types + strs


REAL = blob(b"\x01\x00\x00\x00" * 6, b"\x00int\x00task_struct\x00")
JUNK = bytes((i * 37 + 11) & 0xFF for i in range(4096)).replace(b"\x9f\xeb", b"\x00\x00")


class BtfFromImage(unittest.TestCase):
    def run_tool(self, image):
        with tempfile.TemporaryDirectory() as d:
            img, out = os.path.join(d, "Image"), os.path.join(d, "vmlinux.btf")
            with open(img, "wb") as f:
                f.write(image)
            p = subprocess.run([sys.executable, TOOL, img, out], capture_output=True, text=True)
            data = open(out, "rb").read() if os.path.exists(out) else None
            return p.returncode, p.stderr, data

    def test_blob_in_junk(self):
        rc, _, data = self.run_tool(JUNK + REAL + JUNK)
        self.assertEqual(rc, 0)
        self.assertEqual(data, REAL)

    def test_gzip_image(self):
        rc, _, data = self.run_tool(gzip.compress(JUNK + REAL + JUNK))
        self.assertEqual(rc, 0)
        self.assertEqual(data, REAL)

    def test_no_btf_is_an_error(self):
        rc, err, data = self.run_tool(JUNK * 4)
        self.assertEqual(rc, 1)
        self.assertIn("no BTF", err)
        self.assertIsNone(data)

    def test_inconsistent_headers_skipped(self):
        # strings not right after the types (a 4-byte hole before them,
        # larger than REAL and NUL-framed, so only that rule rejects it);
        # strings past the end of the file
        gap = blob(b"\x02" * 96 + b"\x00" * 4, b"\x00x\x00", str_off=100)
        gap = gap[:12] + struct.pack("<I", 96) + gap[16:]     # type_len 96
        past = struct.pack("<HBBIIIII", 0xEB9F, 1, 0, 24, 0, 4, 4, 1 << 20)
        rc, _, data = self.run_tool(JUNK + gap + JUNK + REAL + JUNK + past)
        self.assertEqual(rc, 0)
        self.assertEqual(data, REAL)

    def test_strings_must_be_nul_delimited(self):
        bad = blob(b"\x03" * 64, b"xint\x00y")    # larger, but not NUL-framed
        rc, _, data = self.run_tool(JUNK + bad + JUNK + REAL)
        self.assertEqual(rc, 0)
        self.assertEqual(data, REAL)

    def test_largest_consistent_blob_wins(self):
        small = blob(b"\x04" * 4, b"\x00a\x00")
        rc, _, data = self.run_tool(small + JUNK + REAL + JUNK)
        self.assertEqual(rc, 0)
        self.assertEqual(data, REAL)

    def test_usage(self):
        p = subprocess.run([sys.executable, TOOL], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("usage", p.stderr)


if __name__ == "__main__":
    r = unittest.TextTestRunner(verbosity=2).run(
        unittest.defaultTestLoader.loadTestsFromTestCase(BtfFromImage))
    nfail = len(r.failures) + len(r.errors)
    print(f"btf-extract: {r.testsRun - nfail - len(r.skipped)} passed, {nfail} failed, {len(r.skipped)} skipped")
    sys.exit(1 if nfail else 0)
