#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# report names the program behind each call (issue 16): the lineage of
# debian-6.1-amd64-lineage.trace, a real boot with the lineage events
# that compile --who-calls adds (tests/data/traces/README.md).

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	D="$BATS_TEST_DIRNAME/../data/traces"
	L="$D/debian-6.1-amd64-lineage.trace"
	T="$BATS_TEST_TMPDIR"
}

@test "text: each culprit's answer in words, with its lineage" {
	run "$BT" report "$L"
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\nlineage: 101 forks, 10 execs, 47 exits, 3 module loads, 7 module requests'* ]]
	# built-in driver: the TASK column says init-1, but /init ran only at 3.37 s
	[[ "$output" == *"by init-1 (its name when the trace was read; then the kernel's init thread (pid 1, before it execs init)), phase initcall, 1 hit, at 1.195419 s (stack trace)"$'\n'"    answer: a kernel initcall (built-in driver code, net_dev_init), run by the kernel's init thread (pid 1, before it execs init)"* ]]
	# a name that was right when it ran is left alone
	[[ "$output" == *$'\n    by insmod-95, phase module-load, 1 hit, at 4.067390 s (stack trace)\n'* ]]
	# module init run by a loader, run by a script
	[[ "$output" == *"    answer: the init of module bonding, loaded by insmod (pid 95: forked at 3.991131 s and never exec'd, so it runs /bin/load-bonding.sh, as a daemon's worker, a busybox applet or a shell builtin does), run by /bin/load-bonding.sh (pid 91), run by /init (pid 1)"* ]]
	[[ "$output" == *"      /bin/load-bonding.sh (pid 91): exec at 3.792884 s, forked by pid 1 at 3.788599 s"$'\n'"      /init (pid 1): exec at 3.372909 s, forked by pid 0 at 0.230385 s"* ]]
	# a program's netlink request, started by a script
	[[ "$output" == *"    answer: a userspace request (netlink) from ip (pid 98: forked at 4.166486 s and never exec'd, so it runs /bin/make-links.sh"*"run by /bin/make-links.sh (pid 97), run by /init (pid 1)"* ]]
	# a kernel worker ran modprobe for ip's module request
	[[ "$output" == *"    answer: the init of module dummy, loaded by /sbin/modprobe (pid 101), run by the kernel worker kworker/u4:1 (pid 29), for the module request 'rtnl-link-dummy' of ip-100 at 4.242822 s: ip (pid 100"* ]]
	# every module load, with who loaded it and who asked
	[[ "$output" == *$'\nmodules loaded (module_load events):\n  tls at 3.926163 s, loaded by insmod (pid 93'* ]]
	[[ "$output" == *$'\n  dummy at 4.290851 s, loaded by /sbin/modprobe (pid 101), run by the kernel worker kworker/u4:1 (pid 29), for the module request \'rtnl-link-dummy\' of ip-100 at 4.242822 s'* ]]
	# the lineage events themselves are not listed as traced functions
	[[ "$output" != *"sched_process_fork (event)"* ]]
	run "$BT" report --function sched_process_exec "$L"
	[[ "$output" == *"sched_process_exec (event): 10 hits"* ]]
}

@test "json: who, with kind, module, via, lineage and the request" {
	"$BT" report -f json "$L" >"$T/j"
	[ "$(jq -c .lineage "$T/j")" = '{"forks":101,"execs":10,"exits":47,"module_loads":3,"module_requests":7}' ]
	[ "$(jq -r '[.functions[0].culprits[].who.kind] | join(",")' "$T/j")" = "initcall,module,request,module" ]
	[ "$(jq -r '.functions[0].culprits[1].who.module' "$T/j")" = "bonding" ]
	[ "$(jq -r '.functions[0].culprits[2].who.via' "$T/j")" = "netlink" ]
	[ "$(jq -r '[.functions[0].culprits[1].who.lineage[] | "\(.pid):\(.program)"] | join(" ")' "$T/j")" = "95:null 91:/bin/load-bonding.sh 1:/init" ]
	[ "$(jq -r '.functions[0].culprits[3].who.requested_by | "\(.task) \(.request) \(.lineage[1].program)"' "$T/j")" = "ip-100 rtnl-link-dummy /bin/make-links.sh" ]
	[ "$(jq -r '.functions[0].culprits[1].who.lineage[1].exec' "$T/j")" = "3.792884" ]
	[ "$(jq -r '[.module_loads[] | "\(.module):\(.task):\(.requested_by.task)"] | join(" ")' "$T/j")" = "tls:insmod-93:null bonding:insmod-95:null dummy:modprobe-101:ip-100" ]
	# a trace without lineage events has no "who" and no "lineage"
	"$BT" report -f json "$D/debian-6.1-amd64-stack.trace" >"$T/s"
	[ "$(jq -c '[has("lineage"), has("module_loads"), (.functions[0].culprits[0] | has("who"))]' "$T/s")" = '[false,false,false]' ]
}

@test "folded: the lineage as the outermost frames" {
	"$BT" report -f folded "$L" >"$T/f"
	grep -qx '\[/init-1\];\[/bin/load-bonding.sh-91\];\[insmod-95\];entry_SYSCALL_64_after_hwframe;.*;register_netdevice 1' "$T/f"
	grep -qx '\[/init-1\];\[/bin/make-links.sh-97\];\[ip-98\];entry_SYSCALL_64_after_hwframe;.*;bond_newlink;register_netdevice 1' "$T/f"
	grep -qx '\[kworker/u4:1-29\];\[/sbin/modprobe-101\];entry_SYSCALL_64_after_hwframe;.*;dummy_init_module;register_netdevice 1' "$T/f"
	! grep -Ev '^[^; ]+(;[^; ]+)* [1-9][0-9]*$' "$T/f"
}
