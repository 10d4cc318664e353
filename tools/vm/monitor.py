#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Send HMP commands to a QEMU monitor on a unix socket; print the replies.

    monitor.py SOCKET COMMAND...

Used by run.sh's watchdog to save the vCPUs' state (info cpus, info
registers -a) when a guest hangs, before it stops QEMU. Each reply is read
until the monitor prompt comes back (or 10 s pass). Exit status 1 if the
socket cannot be reached.
"""
import socket
import sys
import time

PROMPT = b"(qemu) "


def read_until_prompt(sock, deadline):
    data = b""
    while not data.endswith(PROMPT) and time.monotonic() < deadline:
        sock.settimeout(max(0.1, deadline - time.monotonic()))
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            break
        if not chunk:
            break
        data += chunk
    return data


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(argv[1])
    except OSError as e:
        print(f"monitor.py: cannot reach {argv[1]}: {e}", file=sys.stderr)
        return 1
    read_until_prompt(sock, time.monotonic() + 10)   # the banner
    for cmd in argv[2:]:
        print(f"### {cmd}")
        sock.sendall(cmd.encode() + b"\n")
        out = read_until_prompt(sock, time.monotonic() + 10)
        text = out.decode(errors="replace").replace("\r", "")
        if text.endswith(PROMPT.decode()):
            text = text[: -len(PROMPT)]
        # The first line is the monitor's echo of the command line.
        print(text.split("\n", 1)[-1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
