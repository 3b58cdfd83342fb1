#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# cross.sh: boottrace cross-built for the boards' architectures with
# Debian's cross compilers (make CROSS_COMPILE=... SYSROOT=..., the target's
# libraries from tests/e2e/cross-sysroot.sh) and run under qemu-user must
# give the native build's bytes on every file of tests/data: standard
# output, standard error, exit status and every file a command writes.
# Areas: report in each format on each trace, console log, dump, pstore
# record and snapshot (and --diff); compile of each config to each target
# form (the binary ones too: a U-Boot script image, an environment image);
# decompile; check against the .config and kernel images of tests/data;
# bootconfig on an initrd (the footer's little-endian size and checksum);
# collect of a fixture snapshot and tracefs into a boot record, as the
# embedded user runs it on the board.
#
#   cross.sh [ARCH...]     (default: arm64 armhf mips64el s390x)
#
# s390x stands in for the big-endian boards (EdgeRouter's Octeon is mips64
# big-endian): Debian has a mips64 big-endian cross compiler but no mips64
# architecture, so no libelf or capstone to link with; s390x is Debian's
# big-endian architecture with all of them.
#
# The native outputs are made once and compared with each architecture's.
# One TAP line per (architecture, area) with its count; a difference shows
# the first lines of its diff. The qemu-user runs go two at a time.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 3
# shellcheck disable=SC2034 # tap.sh counts under it
SUITE=cross
# shellcheck source=tests/e2e/tap.sh
. "$top/tests/e2e/tap.sh"
# shellcheck source=tests/lib/testenv.sh
. "$top/tests/lib/testenv.sh"

[ $# -gt 0 ] || set -- arm64 armhf mips64el s390x
bt=$top/build/boottrace
[ -x "$bt" ] || { nok "$bt missing (make all)"; finish; }
W=$(mktemp -d "${TMPDIR:-/tmp}/bt-cross.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM HUP

# ARCH -> the GNU triplet of Debian's cross compiler and qemu-user's name
triplet_of() {
	case $1 in
	arm64) echo aarch64-linux-gnu ;;
	armhf) echo arm-linux-gnueabihf ;;
	mips64el) echo mips64el-linux-gnuabi64 ;;
	s390x) echo s390x-linux-gnu ;;
	*) return 1 ;;
	esac
}
qemu_of() {
	case $1 in
	arm64) echo qemu-aarch64 ;;
	armhf) echo qemu-arm ;;
	*) echo "qemu-$1" ;;
	esac
}

# ---- the cases: "AREA|SHELL COMMAND" a line, $BT the program ----
# Each runs in a directory of its own where data/ is tests/data, so that
# every path it prints is the same on both sides; what it writes there is
# compared too.
c() { printf '%s|%s\n' "$1" "$2"; } # AREA COMMAND: one case
cases() {
	base="--base 'root=/dev/vda1 console=ttyS0'"
	for f in data/traces/* data/traces/refused/*; do
		case $f in *.sh | *.md | *.modules | *.kallsyms | */refused) continue ;; esac
		# what report refuses (a compressed pstore record, another tracer),
		# in one format: the refusal is the output
		fmts="text json folded html svg perfetto"
		case $f in *.gz | */refused/*) fmts=text ;; esac
		for fmt in $fmts; do
			c report "\$BT report -f $fmt $f"
		done
		# the boot's symbols and module ranges, where the capture kept them
		s=${f%.trace}
		[ ! -f "$s.kallsyms" ] || c report "\$BT report -f json --kallsyms $s.kallsyms $f"
		[ ! -f "$s.modules" ] || c report "\$BT report -f json --proc-modules $s.modules $f"
	done
	for fmt in text json html; do
		c report "\$BT report --diff data/traces/debian-6.1-amd64-stack.trace -f $fmt data/traces/debian-6.1-amd64-lineage.trace"
	done
	for cf in data/*.bconf; do
		for t in cmdline bootconfig grub; do
			c compile "\$BT compile -t $t $cf"
		done
		for t in kernel-install uki rpi uboot-script uboot-env; do
			c compile "\$BT compile -t $t $base $cf"
		done
		c compile "echo 'U_BOOT_PARAMETERS=\"root=/dev/sda1 ro\"' >u-boot && \$BT compile -t u-boot-menu --base-file u-boot -o u-boot.new $cf"
		c compile "printf '%s\\n' 'title Debian' 'linux /vmlinuz' 'options root=/dev/sda1' >e.conf && \$BT compile -t bls --base-file e.conf -o e.new $cf"
		# every board; the binary forms (a mkimage script image, an
		# environment image with its CRC) to files; mkimage writes its time
		# into the image's header unless SOURCE_DATE_EPOCH says one
		for b in ../board/*.bconf; do
			b=${b##*/}
			b=${b%.bconf}
			c compile "\$BT compile -b $b $cf"
			c compile "\$BT compile -b $b -t uboot-envimage $base -o env.img $cf"
			c compile "SOURCE_DATE_EPOCH=1700000000 \$BT compile -b $b -t uboot-scr $base -o boot.scr $cf"
		done
		c compile "\$BT compile -b edgerouter-lite -t bootoctlinux --base 'bootoctlinux 0x20000000 coremask=0x3 root=/dev/sda2' $cf"
		for k in data/kconfig/*.config; do
			c compile "\$BT compile -k 6.1 --kernel-config $k $cf"
			c check "\$BT check -f json --kernel-config $k $cf"
		done
		for k in data/kimg/*; do
			c compile "\$BT compile --kernel $k $cf"
			c check "\$BT check --kernel $k $cf"
		done
		c decompile "\$BT compile -o line $cf && \$BT decompile -o back.bconf \"\$(cat line)\""
		c bootconfig "printf initrd | gzip -n >initrd && \$BT bootconfig -a $cf initrd && \$BT bootconfig initrd && \$BT bootconfig -l initrd"
		c bootconfig "printf initrd | gzip -n >initrd && \$BT bootconfig -a $cf initrd && \$BT bootconfig -d initrd && cat initrd"
	done
	c decompile "\$BT decompile 'ftrace=function ftrace_filter=register_netdevice trace_options=func_stack_trace trace_buf_size=4M initcall_debug quiet'"
	for k in data/kimg/*; do
		c check "\$BT check --kernel $k --print-functions"
		c check "\$BT check --kernel $k --print-events"
		c check "\$BT check --kernel $k --print-map"
	done
	c collect "sh ../../collect-fixture && \$BT collect --run run --state state --tracefs tracefs --config empty.conf --boot-id 0123456789abcdef && \$BT report -f json state/0123456789abcdef"
	c boards "\$BT boards -v"
}

# The fixture collect reads (as tests/cli/collect.bats makes it): the hook's
# snapshot of boot 0123456789abcdef and a tracefs holding it and later events
cat >"$W/collect-fixture" <<'EOF'
id=0123456789abcdef
mkdir -p run/$id/per_cpu/cpu0 tracefs/per_cpu/cpu0 tracefs/per_cpu/cpu1 state
: >empty.conf
head='# tracer: function
#
# entries-in-buffer/entries-written: 4/4   #P:2
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |'
printf '%s\n' "$head" \
	'         busybox-92      [000] .....     2.406358: register_netdevice <-bond_create' \
	'         busybox-92      [000] .....     2.406534: <stack trace>' \
	' => register_netdevice' ' => bond_create' ' => bonding_init' \
	'          insmod-93      [001] .....     2.500000: register_netdevice <-loopback_net_init' >run/$id/trace
printf 'format=1\nversion=0.1.0\nboot_id=%s\npoint=init-top\nuptime_start=4.41\nuptime_end=4.73\nstopped=1\nfollow=1\nresumed=1\nerrors=0\nwarnings=0\n' $id >run/$id/meta
echo "errors=0 warnings=0" >run/$id/COMPLETE
echo "[local] global counter" >run/$id/trace_clock
echo function >run/$id/tracer
echo "BOOT_IMAGE=/vmlinuz root=/dev/vda1 boottrace.follow=1" >run/$id/cmdline
echo 6.1.0-27-cloud-amd64 >run/$id/release
printf 'entries: 3\noverrun: 0\n' >run/$id/per_cpu/cpu0/stats
{ cat run/$id/trace; printf '%s\n' \
	'              ip-300     [001] .....     9.100000: register_netdevice <-rtnl_newlink' \
	'              ip-300     [001] .....     9.100001: <stack trace>' \
	' => register_netdevice' ' => rtnl_newlink' ' => rtnetlink_rcv_msg'; } >tracefs/trace
echo 1 >tracefs/tracing_on
echo "[local] global counter" >tracefs/trace_clock
echo function >tracefs/current_tracer
printf 'entries: 5\noverrun: 0\ndropped events: 0\n' >tracefs/per_cpu/cpu0/stats
cp tracefs/per_cpu/cpu0/stats tracefs/per_cpu/cpu1/stats
EOF

# What differs between two runs of collect by design, and nothing else, is
# made the same: the clock when it ran (collected.utc, the mark's
# collected=), its own uptimes (collected and the live window's
# uptime_start/uptime_end, collect_uptime_* in meta), and what the host's
# kernel holds at that moment (dmesg, /proc/modules: read through, not
# parsed; the host's log may grow between the two runs).
normalize_collect() { # CASE-DIR
	r=$1/state/0123456789abcdef
	[ -d "$r" ] || return 0
	for f in dmesg modules; do
		[ ! -f "$r/$f" ] || echo "(the host's, read at collect time)" >"$r/$f"
	done
	for f in "$r/record.json" "$r/meta" "$r/.boottrace-record" "$1/out"; do
		[ -f "$f" ] || continue
		sed -E -e 's/"utc": "[^"]*"/"utc": "T"/' \
			-e 's/"uptime_(start|end)": [0-9.]+/"uptime_\1": U/g' \
			-e 's/^collected=[0-9]+$/collected=T/' \
			-e 's/^(collect_uptime_[a-z]+)=[0-9.]+$/\1=U/' "$f" >"$f.n" && mv "$f.n" "$f"
	done
}

# run_cases SIDE RUNNER LANE LANES: the cases of lane LANE (of LANES) with
# BT=RUNNER into $W/SIDE/N/ (out, err, rc and what the command wrote)
run_cases() {
	rc_n=0
	while IFS='|' read -r area cmd; do
		rc_n=$((rc_n + 1))
		[ $((rc_n % $4)) = "$3" ] || continue
		d=$W/$1/$rc_n
		mkdir -p "$d"
		ln -s "$top/tests/data" "$d/data"
		(cd "$d" && BT=$2 sh -c "$cmd" >out 2>err </dev/null; echo "$?" >"$d/rc")
		rm "$d/data"
		[ "$area" != collect ] || normalize_collect "$d"
	done <"$W/cases"
}

# The sysroots are fetched one after the other in the background (network)
# while the architectures before are built and run (CPU).
(for arch in "$@"; do
	sh tests/e2e/cross-sysroot.sh "$arch" >"$W/sysroot.$arch" 2>"$W/sysroot.$arch.log"
	echo "$?" >"$W/sysroot.$arch.rc"
done) &
sysroot_of() { # ARCH: its sysroot's path, once the fetch above has one
	while [ ! -f "$W/sysroot.$1.rc" ]; do sleep 1; done
	[ "$(cat "$W/sysroot.$1.rc")" = 0 ] && cat "$W/sysroot.$1"
}

(cd tests && cases) >"$W/cases"
echo "# $(wc -l <"$W/cases") cases; native: $bt ($(uname -m))"
run_cases native "$bt" 0 2 &
lane=$!
run_cases native "$bt" 1 2
wait "$lane"
areas=$(cut -d'|' -f1 "$W/cases" | awk '!s[$0]++')
# the commands the native build fails: their verdict is compared like any
# output, but a list of them shows a case that never ran what it meant to
echo "# native: $(cat "$W"/native/*/rc | grep -c '^0$') of $(wc -l <"$W/cases") exit 0; the others:"
i=0
while IFS='|' read -r area cmd; do
	i=$((i + 1))
	[ "$(cat "$W/native/$i/rc")" = 0 ] || echo "#   exit $(cat "$W/native/$i/rc"): $cmd: $(head -n 1 "$W/native/$i/err" | cut -c1-160)"
done <"$W/cases"

# compare ARCH: one TAP line per area
compare() {
	for area in $areas; do
		n=0 same=0 first=
		i=0
		while IFS='|' read -r a cmd; do
			i=$((i + 1))
			[ "$a" = "$area" ] || continue
			n=$((n + 1))
			if diff -r "$W/native/$i" "$W/$1/$i" >"$W/diff" 2>&1; then
				same=$((same + 1))
			elif [ -z "$first" ]; then
				first=$i
				{ echo "# $1, case $i: $cmd"; head -n 20 "$W/diff" | sed 's/^/#   /'; } >"$W/first"
			fi
		done <"$W/cases"
		if [ "$same" = "$n" ]; then
			ok "$1 $area: $n of $n commands give the native bytes (out, err, exit, files)"
		else
			nok "$1 $area: $((n - same)) of $n commands differ from the native build"
			cat "$W/first"
		fi
	done
}

for arch in "$@"; do
	tri=$(triplet_of "$arch") || { nok "$arch: not an architecture this suite knows"; continue; }
	q=$(qemu_of "$arch")
	command -v "$tri-gcc" >/dev/null 2>&1 || { nok "$arch: $tri-gcc is not installed (make deps)"; continue; }
	command -v "$q" >/dev/null 2>&1 || { nok "$arch: $q is not installed (qemu-user, make deps)"; continue; }
	t0=$(date +%s)
	sr=$(sysroot_of "$arch")
	sed 's/^/# /' "$W/sysroot.$arch.log"
	if [ -z "$sr" ]; then
		nok "$arch: the target's libraries (tests/e2e/cross-sysroot.sh)"
		continue
	fi
	t1=$(date +%s)
	# the program only (no unit tests), into build-TRIPLET/ of this tree:
	# a second run rebuilds only what changed; against another sysroot
	# (a point release) or Makefile (flags), everything: make sees neither
	xd=$top/build-$tri
	stamp="$sr $(sha256sum <Makefile | cut -c1-16)"
	[ "$(cat "$xd/.cross-stamp" 2>/dev/null)" = "$stamp" ] || rm -rf "$xd"
	mkdir -p "$xd"
	echo "$stamp" >"$xd/.cross-stamp"
	if ! bt_make -j2 CROSS_COMPILE="$tri-" SYSROOT="$sr" all >"$W/build.log" 2>&1; then
		nok "$arch: make CROSS_COMPILE=$tri- SYSROOT=$sr all"
		tail -n 20 "$W/build.log" | sed 's/^/# /'
		continue
	fi
	xb=$xd/boottrace
	ok "$arch: make CROSS_COMPILE=$tri- builds $(readelf -h "$xb" | sed -n 's/^ *\(Class\|Data\|Machine\): *//p' | tr '\n' ' ')"
	echo "# $arch: $("$tri-gcc" --version | head -n 1), $("$q" --version | head -n 1), sysroot $sr"
	t2=$(date +%s)
	# argv[0] as the native one's, so that nothing printed can differ by it
	run="$q -L $sr -0 $bt $xb"
	if ! $run --version >"$W/version" 2>&1; then
		nok "$arch: $q runs the cross-built boottrace"
		sed 's/^/# /' "$W/version"
		continue
	fi
	run_cases "$arch" "$run" 0 2 &
	lane=$!
	run_cases "$arch" "$run" 1 2
	wait "$lane"
	t3=$(date +%s)
	compare "$arch"
	echo "# $arch: waited for the sysroot $((t1 - t0)) s, build $((t2 - t1)) s, $(wc -l <"$W/cases") runs under $q $((t3 - t2)) s"
done
finish
