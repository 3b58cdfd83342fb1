#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# compile -t bootoctlinux, grub, kernel-install, rpi, from the outside.

bats_require_minimum_version 1.5.0

setup() {
	# BT_BUILD: another build of the same binary (make check also runs
	# these tests on the ASan+UBSan one).
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	T="$BATS_TEST_TMPDIR"
	export BOOTTRACE_BOARD_DIR="$BATS_TEST_DIRNAME/../../board"
	printf 'ftrace.tracer = function\nftrace.ftrace.filters = register_netdevice, bond_create\nftrace.options = func_stack_trace\n' > "$T/trace.bconf"
	WORDS="ftrace=function ftrace_filter=register_netdevice,bond_create trace_options=func_stack_trace"
	# the word that asks the installed hook into the boot (route_cmdline.c)
	EN=boottrace.enable=1
	HEAD='bootoctlinux $(loadaddr) coremask=0xffff endbootargs mem=0 console=ttyS0,115200 root=/dev/mmcblk0p2 rootfstype=ext4 rootwait rw rootdelay=10 mtdparts=phys_mapped_flash:512k(boot0)ro,512k(boot1)ro,64k@1024k(eeprom)ro,3m(recovery),-(data) octeon-ethernet.receive_group_order=3 octeon_ethernet.pow_send_group=-1 net.ifnames=0 biosdevname=0 panic=10 oops=panic loglevel=7 ignore_loglevel printk.devkmsg=on earlycon=uart8250,mmio32,0x1180000000800'
	OLD='ftrace=function_graph ftrace_filter=octeon_irq_init,octeon_pci_setup,cvm_oct_init_module trace_options=stacktrace,sym-offset,print-parent'
	TAIL='crashkernel=128M@0x20000000 init=/sbin/init systemd.log_level=info usbcore.autosuspend=-1 ip=192.168.1.20:192.168.1.1:192.168.1.1:255.255.255.0:octeon:eth0:off fsck.mode=skip fsck.repair=no audit=0 hugepagesz=2M hugepages=64 cma=64M maxcpus=16 nr_cpus=16 irqaffinity=0-3 rcu_nocbs=4-15 nohz_full=4-15 isolcpus=4-15 quiet'
}

@test "bootoctlinux: a 900-byte Octeon line changes only in its tracing words" {
	base="$HEAD $OLD $TAIL"
	[ "${#base}" -ge 900 ]
	run --separate-stderr "$BT" compile -t bootoctlinux -b octeon-uboot --base "$base" "$T/trace.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "$HEAD $WORDS $TAIL $EN" ]
	# The board's quirk is told on stderr, the line stays clean.
	[[ "$stderr" == *"func_stack_trace prints only zero frames"* ]]
	# The env-variable form, single-quoted, from a file, to a file.
	printf "'%s'\n" "$base" > "$T/base.txt"
	run "$BT" compile -t bootoctlinux -b octeon-uboot --base-file "$T/base.txt" -o "$T/out.txt" "$T/trace.bconf"
	[ "$status" -eq 0 ]
	[ "$(cat "$T/out.txt")" = "'$HEAD $WORDS $TAIL $EN'" ]
	# The stock EdgeRouter U-Boot cannot take it: the numbers and a way out.
	run "$BT" compile -t bootoctlinux -b edgerouter-lite --base "$base" "$T/trace.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"has 44 words, but U-Boot on board edgerouter-lite takes at most 32"* ]]
}

@test "bootoctlinux: -v tells what was replaced, dropped and added" {
	run "$BT" compile -v -t bootoctlinux -b edgerouter-lite --base 'bootoctlinux $(loadaddr) coremask=0x3 root=/dev/sda2 ftrace=nop trace_buf_size=1M trace_options=a trace_options=b' "$T/trace.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"replaced 'ftrace=nop' with 'ftrace=function'"* ]]
	[[ "$output" == *"dropped 'trace_buf_size=1M' (not in this plan)"* ]]
	[[ "$output" == *"dropped 'trace_options=b' (a repeat)"* ]]
	[[ "$output" == *"added 'ftrace_filter=register_netdevice,bond_create'"* ]]
	[[ "${lines[-1]}" == 'bootoctlinux $(loadaddr) coremask=0x3 root=/dev/sda2 ftrace=function trace_options=func_stack_trace ftrace_filter=register_netdevice,bond_create boottrace.enable=1' ]]
}

@test "bootoctlinux: endbootargs and -- are respected" {
	run --separate-stderr "$BT" compile -t bootoctlinux -b edgerouter-lite --base 'bootoctlinux 0x20000000 numcores=2 endbootargs root=/dev/sda2 -- single' "$T/trace.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "bootoctlinux 0x20000000 numcores=2 endbootargs root=/dev/sda2 $WORDS $EN -- single" ]
	printf 'kernel.numcores = 1\n' > "$T/nc.bconf"
	run "$BT" compile -t bootoctlinux -b edgerouter-lite --base 'bootoctlinux $(loadaddr) root=/dev/sda2' "$T/nc.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"own option 'numcores='"*"add endbootargs"* ]]
}

@test "bootoctlinux: EdgeRouter limits, exactly at 32 words and 255 bytes" {
	base='bootoctlinux $(loadaddr) endbootargs'
	for i in $(seq 1 25); do base="$base w$i"; done   # 28 words
	run --separate-stderr "$BT" compile -t bootoctlinux -b edgerouter-lite --base "$base" "$T/trace.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "$base $WORDS $EN" ]
	run "$BT" compile -t bootoctlinux -b edgerouter-lite --base "$base w26" "$T/trace.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"has 33 words"*"at most 32 (CONFIG_SYS_MAXARGS"* ]]
	# 255 bytes: the base pads the line up to the buffer, one more fails.
	pad=$(printf 'x%.0s' $(seq 1 $((255 - 36 - 1 - ${#WORDS} - 1 - ${#EN} - 2))))
	run --separate-stderr "$BT" compile -t bootoctlinux -b edgerouter-lite --base "bootoctlinux 0x20000000 endbootargs p=$pad" "$T/trace.bconf"
	[ "$status" -eq 0 ]
	[ "${#output}" -eq 255 ]
	run "$BT" compile -t bootoctlinux -b edgerouter-lite --base "bootoctlinux 0x20000000 endbootargs p=${pad}x" "$T/trace.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"command is 256 bytes"*"reads at most 255 (CONFIG_SYS_CBSIZE 256"* ]]
}

@test "bootoctlinux: quoted values, and what U-Boot cannot carry" {
	printf 'kernel.foo = "a b"\nkernel.kprobe_event = "p:a/b,f;p:a/c,g"\n' > "$T/q.bconf"
	run "$BT" compile -t bootoctlinux -b octeon-uboot --base 'bootoctlinux 0 endbootargs' "$T/q.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = 'bootoctlinux 0 endbootargs boottrace.enable=1 foo="a b" kprobe_event=p:a/b,f\;p:a/c,g' ]
	printf 'kernel.foo = "a  b"\n' > "$T/q2.bconf"
	run "$BT" compile -t bootoctlinux -b octeon-uboot --base 'bootoctlinux 0 endbootargs' "$T/q2.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"the kernel would get 'foo=\"a b\"'"* ]]
	run "$BT" compile -t bootoctlinux -b octeon-uboot "$T/trace.bconf"
	[ "$status" -eq 2 ]
	[[ "$output" == *"needs --base"* ]]
}

@test "grub: the drop-in, sourced by sh, extends GRUB_CMDLINE_LINUX" {
	printf 'kernel.kprobe_event = "p,vfs_read,$arg1"\nkernel.foo = "a b"\n' > "$T/g.bconf"
	cat "$T/trace.bconf" >> "$T/g.bconf"
	run "$BT" compile -t grub -b x86_64-grub -o "$T/90-boottrace.cfg" "$T/g.bconf"
	[ "$status" -eq 0 ]
	got=$(GRUB_CMDLINE_LINUX="quiet splash" sh -c '. "$1"; printf %s "$GRUB_CMDLINE_LINUX"' sh "$T/90-boottrace.cfg")
	# an x86_64 board: trace_clock=global keeps the boot's trace (route_clock.c)
	[ "$got" = "quiet splash $WORDS trace_clock=global $EN 'kprobe_event=p,vfs_read,\$arg1' 'foo=a b'" ]
	printf "kernel.foo = \"it's\"\n" > "$T/bad.bconf"
	run "$BT" compile -t grub "$T/bad.bconf"
	[ "$status" -eq 1 ]
	# refused at the setting's place, by the form's own word rule
	[[ "$output" == *"bad.bconf:1:"*"-t grub cannot carry the word foo=it's: GRUB's linux loader"* ]]
}

@test "kernel-install and rpi: the whole line, merged, with its limit" {
	run "$BT" compile -t kernel-install --base 'BOOT_IMAGE=/vmlinuz root=UUID=1 ro quiet ftrace=nop initrd=\initrd' "$T/trace.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "root=UUID=1 ro quiet ftrace=function ftrace_filter=register_netdevice,bond_create trace_options=func_stack_trace trace_clock=global boottrace.enable=1" ]
	printf 'console=serial0,115200 root=PARTUUID=6c586e13-02 rootwait\n' > "$T/cmdline.txt"
	run "$BT" compile -t rpi -b rpi4 --base-file "$T/cmdline.txt" -o "$T/cmdline.txt" "$T/trace.bconf"
	[ "$status" -eq 0 ]
	[ "$(wc -l < "$T/cmdline.txt")" -eq 1 ]
	[ "$(cat "$T/cmdline.txt")" = "console=serial0,115200 root=PARTUUID=6c586e13-02 rootwait $WORDS $EN" ]
	pad=$(printf 'x%.0s' $(seq 1 1000))
	run "$BT" compile -t rpi -b rpi4 --base "p=$pad" "$T/trace.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"cmdline.txt line is"*"keeps at most 1023 (COMMAND_LINE_SIZE 1024 of board rpi4)"* ]]
}

@test "bootoctlinux: a bootcmd of several commands, only the boot command's arguments change" {
	run --separate-stderr "$BT" compile -t bootoctlinux -b octeon-uboot --base 'fatload mmc 0 $(loadaddr) vmlinux.64; bootoctlinux $(loadaddr) coremask=0x3 root=/dev/sda2 ftrace=nop console=ttyS0,115200 && run recovery' "$T/trace.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = 'fatload mmc 0 $(loadaddr) vmlinux.64; bootoctlinux $(loadaddr) coremask=0x3 root=/dev/sda2 ftrace=function console=ttyS0,115200 ftrace_filter=register_netdevice,bond_create trace_options=func_stack_trace boottrace.enable=1 && run recovery' ]
	# setenv's quotes around the whole bootcmd come back
	run --separate-stderr "$BT" compile -t bootoctlinux -b octeon-uboot --base "'usb start; fatload usb 0 \$(loadaddr) vmlinux; bootoctlinux \$(loadaddr) endbootargs root=/dev/sda2'" "$T/trace.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "'usb start; fatload usb 0 \$(loadaddr) vmlinux; bootoctlinux \$(loadaddr) endbootargs root=/dev/sda2 $WORDS $EN'" ]
	run "$BT" compile -t bootoctlinux -b octeon-uboot --base 'run loadkernel; run boot' "$T/trace.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"has none"* ]]
}

@test "bootoctlinux: new words go inside the command's quoted arguments" {
	run --separate-stderr "$BT" compile -t bootoctlinux -b octeon-uboot --base "run loadkernel; bootoctlinux \$(loadaddr) 'coremask=0x3 root=/dev/sda2 ftrace=nop'" "$T/trace.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "run loadkernel; bootoctlinux \$(loadaddr) 'coremask=0x3 root=/dev/sda2 $WORDS $EN'" ]
	printf "kernel.foo = \"it's\"\n" > "$T/q.bconf"
	run "$BT" compile -t bootoctlinux -b octeon-uboot --base "bootoctlinux 0 'root=/dev/sda2'" "$T/q.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"a ' would end them"* ]]
}

@test "bootoctlinux: the length limit counts the whole bootcmd, every command" {
	# edgerouter-lite: CONFIG_SYS_CBSIZE 256. The boot command alone fits.
	cmd='bootoctlinux $(loadaddr) endbootargs root=/dev/sda2'
	run --separate-stderr "$BT" compile -t bootoctlinux -b edgerouter-lite --base "$cmd" "$T/trace.bconf"
	[ "$status" -eq 0 ]
	pre="fatload usb 0 \$(loadaddr) $(printf 'v%.0s' $(seq 1 150))"
	run "$BT" compile -t bootoctlinux -b edgerouter-lite --base "$pre; $cmd" "$T/trace.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"the bootoctlinux command is 3"*"bytes (its whole line, every command of --base counted)"*"at most 255 (CONFIG_SYS_CBSIZE 256"* ]]
}

@test "grub: tracing words before a --, never a second one; --base-file /etc/default/grub merges both variables" {
	run "$BT" compile -t grub -b x86_64-grub -o "$T/90-boottrace.cfg" "$T/trace.bconf"
	[ "$status" -eq 0 ]
	got=$(GRUB_CMDLINE_LINUX="root=/dev/sda1 -- single" sh -c '. "$1"; printf %s "$GRUB_CMDLINE_LINUX"' sh "$T/90-boottrace.cfg")
	[ "$got" = "root=/dev/sda1 $WORDS trace_clock=global $EN -- single" ]
	got=$(GRUB_CMDLINE_LINUX="--" sh -c '. "$1"; printf %s "$GRUB_CMDLINE_LINUX"' sh "$T/90-boottrace.cfg")
	[ "$got" = "$WORDS trace_clock=global $EN --" ]
	printf 'GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX_DEFAULT="quiet ftrace=nop"\nGRUB_CMDLINE_LINUX="console=ttyS0 root=/dev/sda1 trace_options=sym-addr -- single"\n' > "$T/grub"
	run "$BT" compile -t grub -b x86_64-grub --base-file "$T/grub" -o "$T/90-boottrace.cfg" "$T/trace.bconf"
	[ "$status" -eq 0 ]
	got=$(sh -c '. "$1"; . "$2"; printf "%s|%s" "$GRUB_CMDLINE_LINUX" "$GRUB_CMDLINE_LINUX_DEFAULT"' sh "$T/grub" "$T/90-boottrace.cfg")
	[ "$got" = "console=ttyS0 root=/dev/sda1 trace_options=func_stack_trace ftrace=function ftrace_filter=register_netdevice,bond_create trace_clock=global boottrace.enable=1 -- single|quiet" ]
}

@test "grub: init's words go at the end of the line, behind one '--' only" {
	printf 'ftrace.tracer = function\ninit.x = 1\n' > "$T/i.bconf"
	line() { sh -c '. "$1"; printf "%s %s" "$GRUB_CMDLINE_LINUX" "$GRUB_CMDLINE_LINUX_DEFAULT"' sh "$1"; }
	# --base with both variables: GRUB_CMDLINE_LINUX_DEFAULT comes last in 10_linux
	run "$BT" compile -t grub -b x86_64-grub -o "$T/a.cfg" --base "$(printf 'GRUB_CMDLINE_LINUX="root=/dev/sda1"\nGRUB_CMDLINE_LINUX_DEFAULT="quiet"\n')" "$T/i.bconf"
	[ "$status" -eq 0 ]
	[ "$(line "$T/a.cfg")" = "root=/dev/sda1 ftrace=function trace_clock=global boottrace.enable=1 quiet -- x=1" ]
	# a "--" in GRUB_CMDLINE_LINUX already: no second one
	run "$BT" compile -t grub -b x86_64-grub -o "$T/b.cfg" --base "$(printf 'GRUB_CMDLINE_LINUX="root=/dev/sda1 -- single"\nGRUB_CMDLINE_LINUX_DEFAULT="quiet"\n')" "$T/i.bconf"
	[ "$status" -eq 0 ]
	[ "$(line "$T/b.cfg")" = "root=/dev/sda1 ftrace=function trace_clock=global boottrace.enable=1 -- single quiet x=1" ]
	# the drop-in, sourced after /etc/default/grub
	run "$BT" compile -t grub -b x86_64-grub -o "$T/c.cfg" "$T/i.bconf"
	[ "$status" -eq 0 ]
	got=$(GRUB_CMDLINE_LINUX="root=/dev/sda1 -- single" GRUB_CMDLINE_LINUX_DEFAULT=quiet sh -c '. "$1"; printf "%s %s" "$GRUB_CMDLINE_LINUX" "$GRUB_CMDLINE_LINUX_DEFAULT"' sh "$T/c.cfg")
	[ "$got" = "root=/dev/sda1 ftrace=function trace_clock=global boottrace.enable=1 -- single quiet x=1" ]
	got=$(GRUB_CMDLINE_LINUX="root=/dev/sda1" GRUB_CMDLINE_LINUX_DEFAULT=quiet sh -c '. "$1"; printf "%s %s" "$GRUB_CMDLINE_LINUX" "$GRUB_CMDLINE_LINUX_DEFAULT"' sh "$T/c.cfg")
	[ "$got" = "root=/dev/sda1 ftrace=function trace_clock=global boottrace.enable=1 quiet -- x=1" ]
}
