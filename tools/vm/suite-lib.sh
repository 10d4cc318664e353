# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Shared by the multi-boot runners (selftests/arm_spe/vm-suite.sh,
# tools/stress/vm-suite.sh): boot one guest as a named suite and add its
# summary to the runner's totals. Source it, with $top set to the
# repository and tot_p/tot_f/tot_s initialised.
# shellcheck disable=SC2154 # $top: the sourcing runner's

# vm_suite_boot SUITE RESULT_FILE RUN_SH_ARGS...: run tools/vm/run.sh
# --suite SUITE with the arguments, its TAP both on stdout and in
# RESULT_FILE; add its "SUITE: N passed, N failed, N skipped" line to the
# totals. A boot that printed no summary line counts as one failure.
vm_suite_boot() {
	local suite=$1 result=$2 line p f s
	shift 2
	"$top/tools/vm/run.sh" --suite "$suite" "$@" | tee "$result"
	line=$(grep -E "^$suite: [0-9]+ passed" "$result" | tail -n1)
	if [ -z "$line" ]; then
		echo "not ok - $suite printed no result line"
		tot_f=$((tot_f + 1))
		return 0
	fi
	read -r p f s < <(sed -E 's/^[^:]+: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped.*/\1 \2 \3/' <<<"$line")
	tot_p=$((tot_p + p)) tot_f=$((tot_f + f)) tot_s=$((tot_s + s))
}

# vm_suite_ran NAME: note that the boot NAME ran (or was tried).
# vm_suite_unknown_boots SUITE WANT: every name in WANT (the boots asked for
# on the command line) that no boot answered is one failure: a misspelt
# boot is an error, not a run of nothing.
VM_SUITE_RAN=" "
vm_suite_ran() { VM_SUITE_RAN+="$1 "; }
vm_suite_unknown_boots() {
	local suite=$1 w
	for w in $2; do
		case $VM_SUITE_RAN in *" $w "*) continue ;; esac
		echo "not ok - $suite: no boot named '$w'"
		tot_f=$((tot_f + 1))
	done
}
