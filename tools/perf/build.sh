#!/usr/bin/env bash
# Build everything the perf guest needs for kernel series ID and stage it:
#
#   tools/perf/build.sh [ID [STAGE]]
#
# prints two lines on stdout: the staging directory (STAGE, default a new
# build/perf/stage-ID.XXXXXX that the caller removes; for the guest's /tests:
# the module, the perf tests of selftests/arm_spe/perf, spe_workload and its
# .syms, spe_model_workload, perf_aux_extract, an arm64 static spe-decode) and the perf root
# filesystem directory (tools/vm/perf-rootfs.sh, for the guest's /).
# Progress goes to stderr.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
SPE_LOG_TAG=perf-build
# shellcheck source=../lib/apt.sh
. "$top/tools/lib/apt.sh"
kid=${1:-$("$top/tools/kernels/fetch.sh" --default)}
cross=aarch64-linux-gnu-
spe_need_host_pkgs make gcc-aarch64-linux-gnu libc6-dev-arm64-cross binutils-aarch64-linux-gnu

bin=$top/build/perf/arm64
mkdir -p "$top/build/perf"
stage=${2:-$(mktemp -d "$top/build/perf/stage-$kid.XXXXXX")}
mkdir -p "$stage"
spe_log "module for $kid"
"$top/tools/kernels/kmake.sh" "$kid" modules >"$stage.module.log" 2>&1 ||
	{ tail -n 20 "$stage.module.log" >&2; spe_die "the module does not build ($stage.module.log)"; }
rm -f "$stage.module.log"
cp "$top/build/$kid/arm_spe_perf.ko" "$stage/"
spe_log "guest programs (static arm64)"
make -s -C "$top/selftests/arm_spe/perf" CROSS_COMPILE=$cross OUT="$bin" >&2
# spe-decode report names symbols with libelf: the static arm64 one that
# spe_observe links (Debian's -dev packages, unpacked, never installed)
deps=$("$top/selftests/arm_spe/get-bpf-deps.sh") || spe_die "no static arm64 libelf (get-bpf-deps.sh)"
make -s -C "$top/tools/decoder" CROSS_COMPILE=$cross OUT="$top/build/perf/decoder-arm64" \
	LIBELF=1 ELF_CFLAGS="-I$deps/usr/include" LDFLAGS="-L$deps/usr/lib/aarch64-linux-gnu" \
	ELF_LIBS="-lelf -lz -lzstd" cli >&2
cp "$bin/spe_workload" "$bin/spe_workload.syms" "$bin/spe_model_workload" \
	"$bin/perf_aux_extract" "$stage/"
cp "$top/build/perf/decoder-arm64/spe-decode" "$stage/"
cp "$top/selftests/arm_spe/perf/"*.sh "$stage/"
rootfs=$("$top/tools/vm/perf-rootfs.sh" "$kid" | tail -n1)
echo "$stage"
echo "$rootfs"
