// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * crashmod: a test module for tests/e2e/crash.sh. Its init calls the named
 * function crashmod_probe_device() and then, by the parameter mode=,
 * panics (panic), spins forever with preemption off so that the soft-lockup
 * detector fires (hang), or dereferences NULL (oops). Any other mode loads
 * and does nothing more.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <linux/string.h>

static char *mode = "none";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "panic, hang or oops");
/* Not a constant: gcc would clone the function as ...constprop.0 */
static int unit;
module_param(unit, int, 0444);
MODULE_PARM_DESC(unit, "the device number crashmod_probe_device() is given");

/*
 * A function the tracer sees by name (a kprobe) before the crash: noipa
 * keeps gcc from cloning it as crashmod_probe_device.isra.0.
 */
static noinline __attribute__((__noipa__)) int crashmod_probe_device(int u)
{
	pr_info("crashmod: probing device %d (mode=%s)\n", u, mode);
	return u + 1;
}

static noinline void crashmod_spin(void)
{
	preempt_disable();
	for (;;)
		cpu_relax();
}

static int __init crashmod_init(void)
{
	int *volatile nowhere = NULL;

	crashmod_probe_device(unit);
	if (!strcmp(mode, "panic"))
		panic("crashmod: device %d failed to come up", unit);
	if (!strcmp(mode, "hang"))
		crashmod_spin();
	if (!strcmp(mode, "oops"))
		return *nowhere;
	return 0;
}

static void __exit crashmod_exit(void)
{
}

module_init(crashmod_init);
module_exit(crashmod_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("boottrace test module: panics, hangs or oopses in its init");
