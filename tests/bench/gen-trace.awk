# SPDX-License-Identifier: GPL-2.0-or-later
# Writes a function trace with func_stack_trace blocks, in the kernel's
# 6.1 layout, of at least MB megabytes with NSTACKS distinct caller stacks
# (tests/bench/report.sh). Usage: mawk -v MB=200 -v NSTACKS=4000 -f gen-trace.awk
BEGIN {
	if (!MB) MB = 200
	if (!NSTACKS) NSTACKS = 4000
	srand(1)
	print "# tracer: function"
	print "#"
	print "# entries-in-buffer/entries-written: 0/0   #P:4"
	print "#"
	print "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION"
	print "#              | |         |   |||||     |         |"
	nf = 60
	for (i = 0; i < nf; i++) fn[i] = sprintf("bench_target_%02d", i)
	for (i = 0; i < 24; i++)
		task[i] = sprintf("%16s", sprintf("task%d-%d", i, 100 + i))
	# a stack: a common outer part, then 3 levels chosen by the stack id
	for (s = 0; s < NSTACKS; s++) {
		a = s % 17; b = int(s / 17) % 16; c = int(s / 272) % 16
		st[s] = sprintf(" => 0xffffffffc03fd083\n => %%s\n => caller_a_%d\n => caller_b_%d_%d\n => caller_c_%d\n => do_one_initcall\n => do_init_module\n => load_module\n => __do_sys_finit_module\n => do_syscall_64\n => entry_SYSCALL_64_after_hwframe\n", a, b, a, c)
	}
	want = MB * 1048576
	bytes = 0
	ts = 1000000
	n = 0
	while (bytes < want) {
		s = (n * 7919) % NSTACKS
		f = fn[(n * 31 + int(s / 7)) % nf]
		t = task[n % 24]
		cpu = n % 4
		ts += 3
		line = sprintf("%s [%03d] .....  %5d.%06d: %s <-caller_a_%d\n%s [%03d] .....  %5d.%06d: <stack trace>\n", t, cpu, int(ts / 1000000), ts % 1000000, f, s % 17, t, cpu, int((ts + 1) / 1000000), (ts + 1) % 1000000)
		blk = sprintf(st[s], f)
		printf "%s%s", line, blk
		bytes += length(line) + length(blk)
		n++
	}
}
