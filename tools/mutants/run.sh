#!/usr/bin/env bash
# make mutants: prove that the test suites can fail. Each mutant of
# mutants.sh (a realistic driver mistake: a barrier removed, the disable
# order swapped, a register field mis-programmed ...) is applied to a copy
# of the tree, the module is built and the suites named for it run on the
# SPE emulator (spe-strict=on, the default). Prints one line per mutant,
#   mutant NAME: killed by TEST
#   mutant NAME: SURVIVED
#   mutant NAME: survived, equivalent
# (one of mutants.sh's equivalent mutants, not counted as a survivor), then
# "mutants: N killed, N survived, N equivalent" and the kill rate over the
# others. Exit status 1 when a mutant survived or could not be tried (its
# sed script no longer changes the driver, the mutated driver does not
# build, its suite failed with no failing case, or its guest hung: a
# timeout is not a kill). Without --quick, a control run first: the
# unmutated driver must pass every suite the selected mutants use.
#
#   tools/mutants/run.sh [--quick] [--qemu PATH] [--kernel ID] [NAME...]
#
# --quick: only the cheap mutants `make check` runs. NAMEs: only those.
# Logs: build/mutants/NAME/ (MUTANTS_OUT=DIR: DIR/NAME/, a run of its own
# that can go alongside another).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
export SPE_LOG_TAG=mutants
# shellcheck source=../lib/apt.sh
. "$top/tools/lib/apt.sh"

quick_only=0 qemu="" kid=""
names=()
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick_only=1 ;;
	--qemu) qemu=$2; shift ;;
	--kernel) kid=$2; shift ;;
	-h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) spe_die "unknown option $1" ;;
	*) names+=("$1") ;;
	esac
	shift
done
[ -n "$qemu" ] || qemu=$("$top/tools/qemu/build.sh" | tail -n 1)
[ -x "$qemu" ] || spe_die "no QEMU at '$qemu'"
[ -n "$kid" ] || kid=$("$top/tools/kernels/fetch.sh" --default)

declare -a M_NAME M_FILE M_SUITES M_SED
m() { M_NAME+=("$1"); M_FILE+=("$2"); M_SUITES+=("$3"); M_SED+=("$4"); }
quick="" equivalent=""
# shellcheck source=mutants.sh
. "$here/mutants.sh"

selected() { # NAME
	local n
	if [ ${#names[@]} -gt 0 ]; then
		for n in "${names[@]}"; do [ "$n" = "$1" ] && return 0; done
		return 1
	fi
	[ "$quick_only" = 0 ] && return 0
	case " $quick " in *" $1 "*) return 0 ;; esac
	return 1
}

# A private copy of the tree (tracked files as they are in the work tree):
# the suites build the module and the tests from it.
out=${MUTANTS_OUT:-$top/build/mutants}
tree=$out/tree
rm -rf "$tree" && mkdir -p "$tree"
git -C "$top" ls-files -z | (cd "$top" && tar --null -T - -cf -) | tar -C "$tree" -xf - ||
	spe_die "could not copy the tree"

# suite SPEC LOG: run one suite of a mutant. Returns 0 if it passed; else
# prints what ended it: "KILL why" (a case of a guest failed: a test's
# assertion, a splat in the kernel log; or a line of the strict model),
# "TIMEOUT why" (the host stopped a hung guest: not counted as a kill) or
# "ERROR why" (the runner's own failure, no result line, a build, or a
# non-zero exit with no failing case).
suite() {
	local spec=$1 log=$2 rc pid b
	local cmd=() consoles=()
	case $spec in
	sel:*)
		cmd=("$tree/selftests/arm_spe/vm-suite.sh" "$qemu" "$kid")
		b=${spec#sel:}
		for b in ${b//+/ }; do
			cmd+=("$b")
			consoles+=("$tree/build/selftests/$b/console.log")
		done
		;;
	perf) cmd=("$tree/tools/perf/vm-suite.sh" "$qemu" "$kid") ;;
	stress) cmd=("$tree/tools/stress/vm-suite.sh" "$qemu" "$kid") ;;
	*) echo "unknown suite $spec"; return 1 ;;
	esac
	rm -f "$log.violation" "${consoles[@]}"
	setsid "${cmd[@]}" >"$log" 2>&1 </dev/null &
	pid=$!
	if [ ${#consoles[@]} -gt 0 ]; then
		# The first spe-violation line of QEMU's strict model ends the
		# suite at once: the mutant is caught, and the guest may hang
		# after it (a PMBIRQ storm) until the harness's timeout.
		tail -q -n +1 -F --pid="$pid" "${consoles[@]}" 2>/dev/null |
			{ grep -a -m1 'spe-violation: CPU' >"$log.violation" &&
				kill -- -"$pid" 2>/dev/null; }
	fi
	wait "$pid"
	rc=$?
	if [ -s "$log.violation" ]; then
		echo "KILL emulated SPE rules kept ($(sed 's/.*spe-violation: //' "$log.violation" | cut -c1-100))"
		return 1
	fi
	local first hung
	# A hung guest's tests fail too ("no result line", "not run"), before
	# the host's note: the note decides, wherever it is.
	hung=$(grep -m1 '^not ok.*the host stopped the guest' "$log")
	if [ -n "$hung" ]; then
		echo "TIMEOUT ${hung#not ok }"
		return 1
	fi
	first=$(grep -m1 '^not ok' "$log")
	case $first in
	'') ;;
	# numbered: a case of a guest's TAP (parse_log.py)
	'not ok '[0-9]*) echo "KILL $(sed 's/^not ok [0-9]* *-* *//' <<<"$first")"; return 1 ;;
	# unnumbered: the runner's own (no result line, a build, a boot name)
	*) echo "ERROR ${first#not ok - }"; return 1 ;;
	esac
	[ "$rc" -eq 0 ] && return 0
	echo "ERROR ${spec}: exit status $rc with no failing case"
	return 1
}

# build_module DIR: build the module of the tree copy for the kernel
build_module() {
	find "$tree/drivers" -type f -exec touch {} +
	"$tree/tools/kernels/kmake.sh" "$kid" modules >"$1/build.log" 2>&1
}

# The control run (not with --quick, whose control is make check's own
# stages in the same run): the unmutated driver passes every suite the
# selected mutants use, or no kill means anything.
if [ "$quick_only" = 0 ]; then
	declare -A seen=()
	cdir=$out/control
	rm -rf "$cdir" && mkdir -p "$cdir"
	rm -rf "$tree/drivers" && cp -r "$top/drivers" "$tree/drivers"
	build_module "$cdir" || spe_die "control run: the unmutated module does not build ($cdir/build.log)"
	for i in "${!M_NAME[@]}"; do
		selected "${M_NAME[$i]}" || continue
		IFS=, read -r -a specs <<<"${M_SUITES[$i]}"
		for spec in "${specs[@]}"; do
			[ -z "${seen[$spec]:-}" ] || continue
			seen[$spec]=1
			spe_log "control: $spec"
			if ! why=$(suite "$spec" "$cdir/${spec//[:+]/-}.log"); then
				echo "mutants: the control run fails $spec (${why#* }): no mutant is judged"
				exit 2
			fi
		done
	done
	echo "mutants: control run: ${#seen[@]} suites pass on the unmutated driver"
fi

killed=0 survived=0 broken=0 equiv=0 timeouts=0
for i in "${!M_NAME[@]}"; do
	name=${M_NAME[$i]} file=${M_FILE[$i]}
	selected "$name" || continue
	mdir=$out/$name
	rm -rf "$mdir" && mkdir -p "$mdir"
	rm -rf "$tree/drivers" && cp -r "$top/drivers" "$tree/drivers"
	sed -i -e "${M_SED[$i]}" "$tree/$file"
	if cmp -s "$top/$file" "$tree/$file"; then
		echo "mutant $name: ERROR: the script no longer changes $file"
		broken=$((broken + 1))
		continue
	fi
	diff -u "$top/$file" "$tree/$file" >"$mdir/mutant.diff"
	if ! build_module "$mdir"; then
		echo "mutant $name: ERROR: does not build (${mdir#"$top/"}/build.log)"
		broken=$((broken + 1))
		continue
	fi
	by=""
	IFS=, read -r -a specs <<<"${M_SUITES[$i]}"
	for spec in "${specs[@]}"; do
		spe_log "$name: $spec"
		if ! by=$(suite "$spec" "$mdir/${spec//[:+]/-}.log"); then
			break
		fi
		by=""
	done
	case $by in
	KILL*)
		echo "mutant $name: killed by ${by#KILL }"
		killed=$((killed + 1))
		;;
	TIMEOUT*)
		echo "mutant $name: ERROR: timed out, not counted as a kill (${by#TIMEOUT })"
		timeouts=$((timeouts + 1))
		;;
	ERROR*)
		echo "mutant $name: ERROR: ${by#ERROR }"
		broken=$((broken + 1))
		;;
	*)
		if [[ " ${equivalent//$'\n'/ } " == *" $name "* ]]; then
			echo "mutant $name: survived, equivalent"
			equiv=$((equiv + 1))
		else
			echo "mutant $name: SURVIVED"
			survived=$((survived + 1))
		fi
		;;
	esac
done
rm -rf "$tree/drivers" && cp -r "$top/drivers" "$tree/drivers"
rate=""
[ $((killed + survived)) -gt 0 ] && rate=" ($((100 * killed / (killed + survived)))% of the non-equivalent killed)"
echo "mutants: $killed killed, $survived survived, $equiv equivalent$([ "$broken" -gt 0 ] && echo ", $broken broken")$([ "$timeouts" -gt 0 ] && echo ", $timeouts timed out")$rate"
# make check's summary form: a killed mutant is a passed case.
[ "$quick_only" = 0 ] || echo "mutants-quick: $killed passed, $((survived + broken + timeouts)) failed, 0 skipped"
[ "$survived" -eq 0 ] && [ "$broken" -eq 0 ] && [ "$timeouts" -eq 0 ]
