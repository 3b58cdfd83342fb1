#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# boottrace compile: boottrace.crash and boottrace.hang, the words that get
# the trace out of a boot that dies (docs/crash.md), checked against the
# target kernel's version and .config.

bats_require_minimum_version 1.5.0

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	D="$BATS_TEST_DIRNAME/../data"
	T="$BATS_TEST_TMPDIR"
	export BOOTTRACE_BOARD_DIR="$BATS_TEST_DIRNAME/../../board"
}

# A .config of kernel $1 with the given options set (and nothing else).
kconfig() {
	v=$1; shift
	printf '# Linux/x86 %s Kernel Configuration\n' "$v" >"$T/config"
	for o in FTRACE FUNCTION_TRACER DYNAMIC_FTRACE MODULES "$@"; do
		printf 'CONFIG_%s=y\n' "$o" >>"$T/config"
	done
}

@test "crash = console: the dump, the board's console, a small buffer, a reboot" {
	printf 'kernel.trace_event = "initcall:*"\nboottrace.crash = console\n' >"$T/c.bconf"
	run "$BT" compile -b qemu-x86_64 -k 6.1 "$T/c.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "trace_clock=global trace_event=initcall:* ftrace_dump_on_oops console=ttyS0 trace_buf_size=128K panic=10 boottrace.follow=1" ]
}

@test "crash = console keeps the user's own buffer size, panic= and console=" {
	printf 'ftrace.buffer_size = 1M\nkernel.panic = 30\nkernel.console = ttyAMA0\nboottrace.crash = console\n' >"$T/c.bconf"
	run "$BT" compile -k 6.1 "$T/c.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"trace_buf_size=1M"* ]]
	[[ "$output" != *"128K"* ]]
	[[ "$output" == *"panic=30"* ]]
	[[ "$output" != *"panic=10"* ]]
	[[ "$output" == *"console=ttyAMA0"* ]]
	[[ "$output" != *"console=ttyS0"* ]]
}

@test "crash = console on a board whose base line has console=: no second one" {
	printf 'boottrace.crash = console\n' >"$T/c.bconf"
	printf 'board {\n\tarch = x86_64\n\tbootloader = qemu-direct\n\tconsole = ttyS0\n\tcmdline.max = 2048\n\tcmdline.base = "root=/dev/vda console=ttyS1,115200"\n}\n' >"$T/b.bconf"
	run "$BT" compile -b "$T/b.bconf" -k 6.1 "$T/c.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" != *"console=ttyS0"* ]]
}

@test "crash_reboot: -1 reboots at once; bad values are refused with the key's place" {
	printf 'boottrace.crash = console\nboottrace.crash_reboot = -1\n' >"$T/c.bconf"
	run "$BT" compile -k 6.1 "$T/c.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"panic=-1"* ]]
	for v in -2 x 3601; do
		printf 'boottrace.crash = console\nboottrace.crash_reboot = %s\n' "$v" >"$T/c.bconf"
		run "$BT" compile -k 6.1 "$T/c.bconf"
		[ "$status" -eq 1 ]
		[[ "$output" == *"c.bconf:2:"*"crash_reboot"*"-1 (reboot at once), 0 (never)"* ]]
	done
}

@test "crash modes: a misspelling is named with the nearest mode; off goes alone; no repeats" {
	printf 'boottrace.crash = consol\n' >"$T/c.bconf"
	run "$BT" compile -k 6.1 "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"c.bconf:1:"*"'consol' is not console"*"did you mean console?"* ]]
	printf 'boottrace.crash = off, console\n' >"$T/c.bconf"
	run "$BT" compile -k 6.1 "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"off goes alone"* ]]
	printf 'boottrace.crash = console, console\n' >"$T/c.bconf"
	run "$BT" compile -k 6.1 "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"names console twice"* ]]
	printf 'boottrace.crash = off\n' >"$T/c.bconf"
	run "$BT" compile -k 6.1 "$T/c.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "boottrace.enable=1" ]
}

@test "hang = panic: each detector the .config has, each one it lacks named" {
	kconfig 6.1.0 SOFTLOCKUP_DETECTOR RCU_STALL_COMMON
	printf 'boottrace.crash = console\nboottrace.hang = panic\nboottrace.hang_seconds = 7\n' >"$T/c.bconf"
	run "$BT" compile --kernel-config "$T/config" "$T/c.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"softlockup_panic=1 sysctl.kernel.panic_on_rcu_stall=1 watchdog_thresh=4 rcupdate.rcu_cpu_stall_timeout=10"* ]]
	! "$BT" compile --kernel-config "$T/config" "$T/c.bconf" 2>/dev/null | grep -q hung_task
	[[ "$output" == *"c.bconf:2:"*"warning: CONFIG_DETECT_HUNG_TASK is not set"*"hung_task_panic= is left out"* ]]
}

@test "hang = panic on a kernel with no detector at all is refused" {
	kconfig 6.1.0
	printf 'boottrace.crash = console\nboottrace.hang = panic\n' >"$T/c.bconf"
	run "$BT" compile --kernel-config "$T/config" "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"c.bconf:2:"*"none of the detectors"*"CONFIG_SOFTLOCKUP_DETECTOR"* ]]
}

@test "hang = panic before 5.8: the sysctl words are left out, saying so" {
	printf 'boottrace.crash = console\nboottrace.hang = panic\n' >"$T/c.bconf"
	run "$BT" compile -k 5.4 "$T/c.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"softlockup_panic=1 hung_task_panic=1"* ]]
	! "$BT" compile -k 5.4 "$T/c.bconf" 2>/dev/null | grep -q sysctl
	[[ "$output" == *"sysctl.kernel.panic_on_rcu_stall= needs kernel 5.8 or later"* ]]
}

@test "hang = panic alone warns that nothing keeps the trace" {
	printf 'boottrace.hang = panic\n' >"$T/c.bconf"
	run "$BT" compile -k 6.1 "$T/c.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"without boottrace.crash"* ]]
	printf 'boottrace.hang = maybe\n' >"$T/c.bconf"
	run "$BT" compile -k 6.1 "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"boottrace.hang is panic"* ]]
}

@test "crash = persistent: refused before 6.12 naming the version, and without CONFIG_FTRACE" {
	printf 'boottrace.crash = persistent\n' >"$T/c.bconf"
	run "$BT" compile -k 6.11 "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"c.bconf:1:"*"needs kernel 6.12 or later; the target is 6.11"* ]]
	printf '# Linux/x86 6.12.0 Kernel Configuration\nCONFIG_MODULES=y\n' >"$T/config"
	run "$BT" compile --kernel-config "$T/config" "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"persistent needs CONFIG_FTRACE, which is not set"* ]]
}

@test "crash = persistent on 6.12: reserve_mem and an instance with the initcalls and the config's events" {
	printf 'kernel.trace_event = "module:*"\nboottrace.crash = persistent\nboottrace.persistent_size = 4M\n' >"$T/c.bconf"
	run "$BT" compile -k 6.12 "$T/c.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "trace_clock=global trace_event=module:* panic=10 oops=panic reserve_mem=4M:4096:boottrace trace_instance=boottrace@boottrace,initcall:*,module:* boottrace.follow=1" ]
}

@test "crash = persistent in a bootconfig: reserve_mem (an early parameter) stays on the line" {
	printf 'boottrace.crash = persistent\n' >"$T/c.bconf"
	run "$BT" compile -t bootconfig -k 6.12 -o "$T/out.bconf" "$T/c.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"reserve_mem=2M:4096:boottrace"* ]]
	! grep -q reserve_mem "$T/out.bconf"
	grep -qx 'kernel.trace_instance = "boottrace@boottrace,initcall:\*"' "$T/out.bconf"
}

@test "crash = persistent: sizes, a clashing instance, a tracer it cannot carry" {
	for v in 3000 12 1G1; do
		printf 'boottrace.crash = persistent\nboottrace.persistent_size = %s\n' "$v" >"$T/c.bconf"
		run "$BT" compile -k 6.12 "$T/c.bconf"
		[ "$status" -eq 1 ]
		[[ "$output" == *"c.bconf:2:"*"persistent_size"* ]]
	done
	printf 'boottrace.crash = persistent\nftrace.instance.boottrace.events = "sched:*"\n' >"$T/c.bconf"
	run "$BT" compile -k 6.12 "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"name yours differently"* ]]
	printf 'boottrace.crash = persistent\nftrace.tracer = function\n' >"$T/c.bconf"
	run "$BT" compile -k 6.12 "$T/c.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"records events only"*"function tracer's calls are in the global buffer"* ]]
}

@test "--who-calls --crash console: the bring-up preset writes crash and hang" {
	run "$BT" compile --who-calls register_netdevice --crash console --print-config
	[ "$status" -eq 0 ]
	[[ "$output" == *"boottrace.crash = console"* ]]
	[[ "$output" == *"boottrace.hang = panic"* ]]
	run "$BT" compile -b qemu-x86_64 -k 6.1 --who-calls register_netdevice --crash console
	[ "$status" -eq 0 ]
	[[ "$output" == *"ftrace_dump_on_oops"*"softlockup_panic=1"* ]]
	run "$BT" compile --who-calls register_netdevice --crash maybe
	[ "$status" -eq 2 ]
	[[ "$output" == *"--crash maybe: give console"* ]]
	run "$BT" compile --crash console "$D/bond0.bconf"
	[ "$status" -eq 2 ]
}

@test "crash = pstore: the board's region reserved with memmap= and given to ramoops" {
	kconfig 6.1.0 PSTORE_RAM
	printf 'boottrace.crash = pstore\n' >"$T/c.bconf"
	run "$BT" compile -b qemu-x86_64 --kernel-config "$T/config" "$T/c.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ftrace_dump_on_oops trace_buf_size=128K panic=10 oops=panic memmap=0x100000\$0x1f000000 ramoops.mem_address=0x1f000000 ramoops.mem_size=0x100000 ramoops.record_size=0x80000 boottrace.follow=1"* ]]
	[[ "$output" == *"CONFIG_PSTORE_CONSOLE is not set"*"console_size= is left out"* ]]
	[[ "$output" != *"console=ttyS0"* ]]
	# a module: said to miss what happens before it loads
	sed -i 's/CONFIG_PSTORE_RAM=y/CONFIG_PSTORE_RAM=m/' "$T/config"
	printf 'CONFIG_PSTORE_CONSOLE=y\n' >>"$T/config"
	run "$BT" compile -b qemu-x86_64 --kernel-config "$T/config" "$T/c.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ramoops.record_size=0x40000 ramoops.console_size=0x40000"* ]]
	[[ "$output" == *"CONFIG_PSTORE_RAM=m"*"a crash before the initramfs is not kept"* ]]
}

@test "crash = pstore: refused without ramoops, without a board region, and memmap= off x86" {
	kconfig 6.1.0
	printf 'boottrace.crash = pstore\n' >"$T/c.bconf"
	run "$BT" compile -b qemu-x86_64 --kernel-config "$T/config" "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"c.bconf:1:"*"pstore needs CONFIG_PSTORE_RAM, which is not set"* ]]
	run "$BT" compile -b rpi4 -k 6.1 "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"needs the board's RAM that survives a warm reboot"*"board.pstore.address"* ]]
	printf 'board {\n\tarch = arm64\n\tbootloader = u-boot\n\tcmdline.max = 2048\n\tpstore {\n\t\taddress = 0x8f000000\n\t\tsize = 0x100000\n\t\treserve = memmap\n\t}\n}\n' >"$T/b.bconf"
	run "$BT" compile -b "$T/b.bconf" -k 6.1 "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"only x86 kernels read"*"reserve = firmware"* ]]
	sed -i 's/memmap/firmware/' "$T/b.bconf"
	run "$BT" compile -b "$T/b.bconf" -k 6.1 "$T/c.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" != *"memmap="* ]]
	[[ "$output" == *"ramoops.mem_address=0x8f000000"* ]]
}

@test "board.pstore: all three keys, page-aligned, a known reserve" {
	printf 'boottrace.crash = pstore\n' >"$T/c.bconf"
	printf 'board {\n\tarch = x86_64\n\tbootloader = grub\n\tcmdline.max = 2048\n\tpstore.address = 0x1000\n}\n' >"$T/b.bconf"
	run "$BT" compile -b "$T/b.bconf" -k 6.1 "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"b.bconf"*"needs address, size and reserve together"* ]]
	printf 'board {\n\tarch = x86_64\n\tbootloader = grub\n\tcmdline.max = 2048\n\tpstore.address = 0x1001\n\tpstore.size = 4096\n\tpstore.reserve = memmap\n}\n' >"$T/b.bconf"
	run "$BT" compile -b "$T/b.bconf" -k 6.1 "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"whole 4096-byte pages"* ]]
	printf 'board {\n\tarch = x86_64\n\tbootloader = grub\n\tcmdline.max = 2048\n\tpstore.address = 0x1000\n\tpstore.size = 4096\n\tpstore.reserve = e820\n}\n' >"$T/b.bconf"
	run "$BT" compile -b "$T/b.bconf" -k 6.1 "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"reserve 'e820' is memmap"* ]]
}

@test "hang = panic: oops=panic is an early parameter, kept on the bootloader's line by -t bootconfig" {
	printf 'boottrace.crash = console\nboottrace.hang = panic\n' >"$T/c.bconf"
	run "$BT" compile -k 6.1 "$T/c.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"oops=panic softlockup_panic=1"* ]]
	run "$BT" compile -t bootconfig -k 6.1 -o "$T/out.bconf" "$T/c.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"oops=panic bootconfig"* ]]
	! grep -q oops "$T/out.bconf"
	grep -qx 'kernel.softlockup_panic = "1"' "$T/out.bconf"
}

@test "crash: the hook turns tracing on again after its copy (boottrace.follow=1), unless the config says follow or stop" {
	printf 'boottrace.crash = console\n' >"$T/c.bconf"
	run "$BT" compile -k 6.1 "$T/c.bconf"
	[[ "$output" == *" boottrace.follow=1"* ]]
	[[ "$output" != *"boottrace.enable=1"* ]]
	printf 'boottrace.crash = console\nboottrace.follow = keep\n' >"$T/c.bconf"
	run "$BT" compile -k 6.1 "$T/c.bconf"
	[[ "$output" == *" boottrace.follow=keep"* ]]
	[[ "$output" != *"follow=1"* ]]
	printf 'boottrace.crash = console\nboottrace.stop = 0\n' >"$T/c.bconf"
	run "$BT" compile -k 6.1 "$T/c.bconf"
	[[ "$output" != *"follow"* ]]
	run "$BT" compile -k 6.1 --hook-settings "$T/hs" "$T/c.bconf"
	printf 'boottrace.crash = console\n' >"$T/c.bconf"
	run "$BT" compile -k 6.1 --hook-settings "$T/hs" "$T/c.bconf"
	[ "$status" -eq 0 ]
	grep -qx 'boottrace.follow = "1"' "$T/hs"
}
