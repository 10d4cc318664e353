#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""spe-decode on corrupted input, in every output mode (the sanitizer sweep).

    sweep.py BIN WORKDIR [--mb N] [--flips N,N] [--seed N] [--trace FILE]...

BIN is a spe-decode built with ASan, UBSan and -DOB_CHECK (tests/check.sh
builds one). The inputs, written into WORKDIR from a seeded generator:
  - N MiB of random bytes (--mb, default 4);
  - the raw AUX data of tests/data/emul.perf.data.gz (a real capture under
    the emulation, read by tests/auxdata.py, not by spe-decode) with
    each --flips count of bytes set to random values;
  - that perf.data file with the same flips inside its data section (so
    that most of it is still read as perf.data);
  - every --trace FILE as it is (tests/outbound.c --trace: the longest
    records the encoder writes).
Each raw input is decoded with --dump, --json, --csv and --summary from a
file, --json, --csv and --summary from a pipe (the streaming path) and
--json --legacy-align; each perf.data input with --dump, --json, --csv,
--summary and `report`. A run passes when: the exit status is one the
documentation gives (0, 1; 2 only for a perf.data refused with a reason);
standard error holds no sanitizer or outbuf report; every JSON line is a
JSON object (Python's json module, strict UTF-8); every CSV row has the
header's column count; the JSON lines, CSV rows and --summary's record
count agree; the pipe gives the same bytes as the file; every --dump line
is a packet line, an error line or blank.

Prints "PASS: sweep:NAME" / "FAIL: sweep:NAME: why" per input and mode,
and the bytes and records each input took.
"""
import csv
import gzip
import io
import json
import os
import random
import re
import struct
import subprocess
import sys

import auxdata

HERE = os.path.dirname(os.path.abspath(__file__))
SAN = re.compile(rb"ERROR: AddressSanitizer|runtime error:|ERROR: LeakSanitizer|^outbuf: ", re.M)
DUMP_LINE = re.compile(rb"^([0-9a-f]{8,}: [\x20-\x7e]*|AUXTRACE idx [\x20-\x7e]*)?$")


def args():
    a = sys.argv[1:]
    if len(a) < 2:
        sys.exit(__doc__)
    o = {"bin": a[0], "dir": a[1], "mb": 4, "flips": [1000, 10000], "seed": 1, "trace": []}
    i = 2
    while i < len(a):
        k, v = a[i], a[i + 1]
        if k == "--mb":
            o["mb"] = int(v)
        elif k == "--flips":
            o["flips"] = [int(x) for x in v.split(",")]
        elif k == "--seed":
            o["seed"] = int(v)
        elif k == "--trace":
            o["trace"].append(v)
        else:
            sys.exit("sweep.py: unknown option " + k)
        i += 2
    return o


def flipped(data, n, rnd, lo=0):
    b = bytearray(data)
    for _ in range(n):
        b[rnd.randrange(lo, len(b))] = rnd.randrange(256)
    return bytes(b)


passed = failed = 0


def result(name, why):
    global passed, failed
    if why:
        print("FAIL: sweep:%s: %s" % (name, why))
        failed += 1
    else:
        print("PASS: sweep:%s" % name)
        passed += 1


TIMEOUT = 600  # seconds a run may take: more is a hang (exit status -1)


def run(binary, argv, path=None, pipe_data=None):
    cmd = [binary] + argv + ([] if pipe_data is not None else [path])
    try:
        p = subprocess.run(cmd, input=pipe_data, capture_output=True, timeout=TIMEOUT,
                           stdin=None if pipe_data is not None else subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return -1, b"", b"no answer in %d s" % TIMEOUT
    return p.returncode, p.stdout, p.stderr


def common(rc, err, ok_rc):
    if rc not in ok_rc:
        return "exit status %d (%s)" % (rc, err[-300:].decode("utf-8", "replace").strip())
    m = SAN.search(err)
    if m:
        at = err[m.start():m.start() + 300].decode("utf-8", "replace")
        return "sanitizer report: " + at.replace("\n", " | ")
    return None


def json_lines(out):
    n = 0
    for line in out.split(b"\n")[:-1]:
        if not isinstance(json.loads(line.decode("utf-8")), dict):
            raise ValueError("not an object: %r" % line[:80])
        n += 1
    if out and not out.endswith(b"\n"):
        raise ValueError("last line unterminated")
    return n


def csv_rows(out):
    rows = list(csv.reader(io.StringIO(out.decode("utf-8", "surrogateescape"), newline="")))
    if not rows:
        raise ValueError("no header")
    cols = len(rows[0])
    bad = [i for i, r in enumerate(rows) if len(r) != cols]
    if cols != 28 or bad:
        raise ValueError("%d header columns, rows %s differ" % (cols, bad[:3]))
    return len(rows) - 1


def summary_records(out):
    m = re.search(rb"^records: +(\d+) ", out, re.M)
    if not m:
        raise ValueError("no records line")
    return int(m.group(1))


def dump_ok(out):
    for i, line in enumerate(out.split(b"\n")[:-1]):
        if not DUMP_LINE.match(line):
            raise ValueError("line %d: %r" % (i + 1, line[:100]))


def sweep_raw(o, name, data):
    path = os.path.join(o["dir"], name + ".bin")
    with open(path, "wb") as f:
        f.write(data)
    counts, outs = {}, {}
    for mode in ("--dump", "--json", "--csv", "--summary"):
        rc, out, err = run(o["bin"], [mode, "--max-errors=3"], path)
        why = common(rc, err, (0, 1))
        try:
            if not why and mode == "--dump":
                dump_ok(out)
            elif not why and mode == "--json":
                counts[mode] = json_lines(out)
            elif not why and mode == "--csv":
                counts[mode] = csv_rows(out)
            elif not why:
                counts[mode] = summary_records(out)
        except (ValueError, UnicodeDecodeError) as e:
            why = str(e)
        outs[mode] = out
        result("%s%s" % (name, mode), why)
    if len(set(counts.values())) > 1:
        result(name + ":same-records", "records by mode: %s" % counts)
    for mode in ("--json", "--csv", "--summary"):
        rc, out, err = run(o["bin"], [mode, "--max-errors=3"], pipe_data=data)
        why = common(rc, err, (0, 1))
        if not why and mode != "--summary" and out != outs[mode]:
            why = "the pipe's output differs from the file's"
        result("%s:pipe%s" % (name, mode), why)
    rc, out, err = run(o["bin"], ["--json", "--legacy-align", "--base=0x1000", "--max-errors=3"], path)
    why = common(rc, err, (0, 1))
    try:
        if not why:
            json_lines(out)
    except (ValueError, UnicodeDecodeError) as e:
        why = str(e)
    result(name + ":legacy-align--json", why)
    return counts.get("--summary", 0)


def sweep_perf(o, name, data):
    path = os.path.join(o["dir"], name + ".data")
    with open(path, "wb") as f:
        f.write(data)
    refused = None
    for argv in (["--dump"], ["--json"], ["--csv"], ["--summary"], ["report", "--top", "5"]):
        rc, out, err = run(o["bin"], argv + (["--max-errors=3"] if argv[0] != "report" else []), path)
        why = common(rc, err, (0, 1, 2))
        if not why and rc == 2:
            # refused: a reason, no output, and every mode refuses it
            if out or b"spe-decode" not in err:
                why = "exit 2 without a reason, or with output"
            elif refused is False:
                why = "refused by %s only" % argv[0]
            refused = True
        elif not why:
            if refused:
                why = "read by %s, refused by the others" % argv[0]
            refused = False
            try:
                if argv[0] == "--json":
                    json_lines(out)
                elif argv[0] == "--csv":
                    csv_rows(out)
                elif argv[0] == "--dump":
                    dump_ok(out)
            except (ValueError, UnicodeDecodeError) as e:
                why = str(e)
        result("%s:%s" % (name, argv[0].lstrip("-")), why)


def main():
    o = args()
    os.makedirs(o["dir"], exist_ok=True)
    rnd = random.Random(o["seed"])
    real = gzip.open(os.path.join(HERE, "data", "emul.perf.data.gz")).read()
    aux = auxdata.joined(real)
    data_off = struct.unpack_from("<Q", real, 40)[0]

    n = sweep_raw(o, "random-%dMiB" % o["mb"], rnd.randbytes(o["mb"] << 20))
    print("# random: %d MiB, %d records" % (o["mb"], n))
    n = sweep_raw(o, "capture", aux)
    print("# capture: %d bytes of AUX data, %d records" % (len(aux), n))
    for k in o["flips"]:
        n = sweep_raw(o, "capture-flip%d" % k, flipped(aux, k, rnd))
        print("# capture with %d bytes flipped: %d records" % (k, n))
        sweep_perf(o, "perfdata-flip%d" % k, flipped(real, k, rnd, data_off))
    for t in o["trace"]:
        with open(t, "rb") as f:
            data = f.read()
        n = sweep_raw(o, os.path.basename(t).replace(".", "-"), data)
        print("# %s: %d bytes, %d records" % (t, len(data), n))
    print("sweep: %d passed, %d failed" % (passed, failed), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
