// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm-boot's state after a boot (record.h): collect runs on every boot
 * that traced, so it is where the state of a one-shot that has been taken
 * is cleaned up; disarm-boot is left for a one-shot that never happened.
 */
#include <stdio.h>
#include <string.h>

#include "record/record.h"

#define WHO "boottrace collect"

void record_arm_settle(const char *state, struct record_arm *a)
{
	struct arm_opts o = { 0 };
	struct bt_error e;
	char dir[4096];

	memset(a, 0, sizeof(*a));
	bt_error_clear(&e);
	if ((size_t)snprintf(dir, sizeof(dir), "%s/%s", state, ARM_STATE_NAME) >= sizeof(dir))
		return;
	if (arm_fate(dir, &a->fate, a->loader, &e)) {
		snprintf(a->why, sizeof(a->why), "%s", e.msg);
		a->fate = ARM_CHANGED;
		bt_say(WHO, BT_SAY_WARN, "arm-boot's state in %s cannot be read (%s): left as it is; boottrace disarm-boot says more", dir, e.msg);
		return;
	}
	if (a->fate == ARM_PENDING)
		bt_say(WHO, BT_SAY_NOTE, "the next boot is armed by arm-boot (%s): %s, so its state in %s is left; boottrace disarm-boot undoes it", a->loader, arm_fate_name(a->fate), dir);
	if (a->fate == ARM_CHANGED)
		bt_say(WHO, BT_SAY_WARN, "arm-boot's state in %s is left: %s; boottrace disarm-boot says which", dir, arm_fate_name(a->fate));
	if (a->fate != ARM_TAKEN)
		return;
	o.state = dir;
	if (arm_disarm(&o, 0, &e)) {
		snprintf(a->why, sizeof(a->why), "%s", e.msg);
		bt_say(WHO, BT_SAY_WARN, "the bootloader (%s) took the one-shot of arm-boot, but putting back its files failed: %s", a->loader, e.msg);
		return;
	}
	a->restored = 1;
	bt_say(WHO, BT_SAY_NOTE, "the one-shot boot of arm-boot (%s) is over: what arm-boot changed is put back, as boottrace disarm-boot does, and its state %s removed", a->loader, dir);
}
