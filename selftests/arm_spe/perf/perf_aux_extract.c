// SPDX-License-Identifier: GPL-2.0
/*
 * perf_aux_extract: copy the AUX area data (the raw SPE trace) out of a
 * perf.data file, independently of perf, so that another decoder can be run
 * on exactly the bytes perf decodes.
 *
 *   perf_aux_extract PERF.DATA OUT.BIN
 *
 * Concatenates the payloads of every PERF_RECORD_AUXTRACE event of the data
 * section, in file order, into OUT.BIN ("-" for standard output), and prints
 * "auxtrace: N events, M bytes" on standard error. Only the ordinary
 * (seekable, native-endian, uncompressed) perf.data layout is handled.
 * Exit status 0 ok, 1 no AUX data, 2 usage/format/I/O error.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PERF_RECORD_AUXTRACE 71

struct file_section {
	uint64_t offset, size;
};

struct file_header {
	uint64_t magic, size, attr_size;
	struct file_section attrs, data, event_types;
	uint64_t features[4];
};

struct ev_header {
	uint32_t type;
	uint16_t misc, size;
};

struct auxtrace_event {
	struct ev_header h;
	uint64_t size, offset, reference;
	uint32_t idx, tid, cpu, reserved;
};

static int die(const char *what)
{
	fprintf(stderr, "perf_aux_extract: %s\n", what);
	return 2;
}

int main(int argc, char **argv)
{
	struct file_header fh;
	uint64_t pos, end, nev = 0, nbytes = 0;
	FILE *in, *out;
	char *buf = NULL;
	size_t cap = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: perf_aux_extract PERF.DATA OUT.BIN\n");
		return 2;
	}
	in = fopen(argv[1], "rb");
	if (!in)
		return die("cannot open input");
	if (fread(&fh, sizeof(fh), 1, in) != 1)
		return die("short header");
	if (memcmp(&fh.magic, "PERFILE2", 8))
		return die("not a native-endian perf.data (PERFILE2) file");
	if (fh.size != sizeof(fh))
		return die("pipe-mode or unknown header size");
	out = strcmp(argv[2], "-") ? fopen(argv[2], "wb") : stdout;
	if (!out)
		return die("cannot open output");
	pos = fh.data.offset;
	end = fh.data.offset + fh.data.size;
	while (pos + sizeof(struct ev_header) <= end) {
		struct auxtrace_event ev;

		if (fseeko(in, (off_t)pos, SEEK_SET) ||
		    fread(&ev.h, sizeof(ev.h), 1, in) != 1)
			return die("truncated event header");
		if (ev.h.size < sizeof(ev.h))
			return die("corrupt event size");
		if (ev.h.type == PERF_RECORD_AUXTRACE) {
			if (ev.h.size < sizeof(ev) || fseeko(in, (off_t)pos, SEEK_SET) ||
			    fread(&ev, sizeof(ev), 1, in) != 1)
				return die("truncated AUXTRACE event");
			if (ev.size > cap) {
				free(buf);
				cap = ev.size;
				buf = malloc(cap);
				if (!buf)
					return die("out of memory");
			}
			if (fseeko(in, (off_t)(pos + ev.h.size), SEEK_SET) ||
			    (ev.size && fread(buf, ev.size, 1, in) != 1))
				return die("truncated AUX data");
			if (ev.size && fwrite(buf, ev.size, 1, out) != 1)
				return die("write error");
			nev++;
			nbytes += ev.size;
			pos += ev.size;
		}
		pos += ev.h.size;
	}
	if (fclose(out))
		return die("write error");
	fprintf(stderr, "auxtrace: %" PRIu64 " events, %" PRIu64 " bytes\n", nev, nbytes);
	return nev ? 0 : 1;
}
