# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# How `make check` judges one suite: run it, keep its log, and turn its exit
# status and its own summary line into one verdict line. Sourced by
# tools/check.sh; tools/test_suite_runner.sh proves each rule can fire.
#
# A suite passes only if all of these hold:
#   - it prints, as its last summary, a line that starts with its own name:
#     "NAME: N passed, N failed[, N skipped]" (a per-boot line such as
#     "NAME-default: ..." does not count, so a runner that dies between
#     boots has no summary of its own);
#   - it exits 0 (a clean summary followed by a non-zero exit is a failure);
#   - it ran something: a suite whose cases all skipped proves nothing.

SUITE_LINE_RE='[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$'

# suite_verdict NAME LOG RC: print "p f s why" for a finished suite.
# why is empty when the suite's own line stands as it is.
suite_verdict() {
	local name=$1 log=$2 rc=$3 line p=0 f=0 s=0 why=""
	line=$(grep -E "^${name//./\\.}: $SUITE_LINE_RE" "$log" | tail -n1)
	if [ -z "$line" ]; then
		f=1 why="printed no '$name: N passed, N failed' line (exit status $rc)"
	else
		read -r p f s < <(sed -E 's/^[^:]+: ([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?$/\1 \2 \4/' <<<"$line")
		s=${s:-0}
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
			f=1 why="exit status $rc after a summary with no failure"
		elif [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
			f=1 why="ran no test: $s skipped, 0 passed"
		fi
	fi
	echo "$p $f $s $why"
}

# suite_run STAGE LINE_NAME LOG CMD...: run CMD with its output shown and
# kept in LOG; append the verdict "STAGE: N passed, N failed, N skipped
# (Ts)" to the array SUITE_SUMMARY. LINE_NAME is the name the suite's own
# summary line carries (the same runner may serve two stages).
suite_run() {
	local stage=$1 name=$2 log=$3 start rc p f s why
	shift 3
	start=$(date +%s)
	echo "=== $stage: $*"
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	read -r p f s why < <(suite_verdict "$name" "$log" "$rc")
	[ -z "$why" ] || echo "not ok - $stage $why (see $log)"
	suite_verdict_add "$stage: $p passed, $f failed, $s skipped ($(($(date +%s) - start))s)${why:+ [$why]}"
}

# suite_error STAGE WHY: a suite that could not run at all is one failure.
suite_error() {
	suite_verdict_add "$1: 0 passed, 1 failed, 0 skipped (error: $2)"
	echo "not ok - $1: $2"
}

# suite_verdict_add LINE: one stage's verdict. Inside a lane it also goes to
# the lane's verdict file (the lane is a subshell: its SUITE_SUMMARY is
# lost) and, as progress, to the descriptor SUITE_PROGRESS_FD.
suite_verdict_add() {
	SUITE_SUMMARY+=("$1")
	[ -n "${SUITE_VERDICTS:-}" ] || return 0
	echo "$1" >>"$SUITE_VERDICTS"
	[ -z "${SUITE_PROGRESS_FD:-}" ] || echo "=== [$SUITE_LANE] $1" >&"$SUITE_PROGRESS_FD"
}

# Lanes: groups of stages that share no build output, run concurrently
# (the guests are single-threaded TCG work, about one host core each).
# suite_lane NAME DIR CMD...: run CMD in the background, its output in
# DIR/lane-NAME.log and its verdicts in DIR/lane-NAME.verdicts, ended by
# the line "lane-end" when CMD returns. suite_lanes_join waits for every
# lane, prints each one's output in the order they were started, and adds
# their verdicts to SUITE_SUMMARY; a lane that died before its end (its
# stages after that never ran) is one more failure.
SUITE_LANE_NAMES=() SUITE_LANE_DIRS=() SUITE_LANE_PIDS=()
suite_lane() {
	local name=$1 dir=$2
	shift 2
	mkdir -p "$dir"
	: >"$dir/lane-$name.verdicts"
	(
		SUITE_LANE=$name SUITE_VERDICTS=$dir/lane-$name.verdicts
		"$@"
		echo lane-end >>"$SUITE_VERDICTS"
	) >"$dir/lane-$name.log" 2>&1 </dev/null &
	SUITE_LANE_NAMES+=("$name") SUITE_LANE_DIRS+=("$dir") SUITE_LANE_PIDS+=("$!")
}

suite_lanes_join() {
	local i name dir line ended
	for i in "${!SUITE_LANE_PIDS[@]}"; do
		wait "${SUITE_LANE_PIDS[$i]}"
	done
	for i in "${!SUITE_LANE_NAMES[@]}"; do
		name=${SUITE_LANE_NAMES[$i]} dir=${SUITE_LANE_DIRS[$i]} ended=0
		echo "=== lane $name (output kept in $dir/lane-$name.log)"
		cat "$dir/lane-$name.log"
		while IFS= read -r line; do
			if [ "$line" = lane-end ]; then
				ended=1
			else
				SUITE_SUMMARY+=("$line")
			fi
		done <"$dir/lane-$name.verdicts"
		[ "$ended" = 1 ] || suite_error "lane-$name" "the lane died before its last stage; its output: $dir/lane-$name.log"
	done
	SUITE_LANE_NAMES=() SUITE_LANE_DIRS=() SUITE_LANE_PIDS=()
}

# suite_total: print SUITE_SUMMARY and the "total:" line; status 1 on any
# failure.
suite_total() {
	local line p=0 f=0 s=0 a b c
	for line in "${SUITE_SUMMARY[@]}"; do
		echo "$line"
		read -r a b c < <(sed -E 's/^[^:]+: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped.*/\1 \2 \3/' <<<"$line")
		p=$((p + a)) f=$((f + b)) s=$((s + c))
	done
	echo "total: $p passed, $f failed, $s skipped"
	[ "$f" -eq 0 ]
}

# suite_hermetic: drop what the caller's environment could change in the
# stages' builds (a cross compiler, make's own flags such as -s, compiler
# flags); each stage sets what it needs itself.
suite_hermetic() {
	unset CROSS_COMPILE ARCH CC CXX LD AR CFLAGS CPPFLAGS CXXFLAGS LDFLAGS \
		KCFLAGS KCPPFLAGS KBUILD_OUTPUT KBUILD_EXTRA_SYMBOLS O W C V M KDIR \
		MAKEFLAGS MFLAGS MAKELEVEL GNUMAKEFLAGS MAKEOVERRIDES QEMU OUT OUTPUT
}
