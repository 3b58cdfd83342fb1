// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The block above a report whose boot the verb chose (report.h): with no
 * INPUT the reader did not name the boot, so it is said first which one
 * it is, and what arm-boot left for the next boot.
 */
#include <stdio.h>

#include "report/out/report.h"

int rp_print_armed(enum arm_fate armed, const char *loader, FILE *f)
{
	switch (armed) {
	case ARM_PENDING:
		return fprintf(f, "the next boot is armed by arm-boot (%s); boottrace disarm-boot undoes it\n", loader) < 0;
	case ARM_TAKEN:
		return fprintf(f, "arm-boot's one-shot (%s) was taken by the bootloader, but its state is still there: boottrace collect (or disarm-boot) puts its files back\n", loader) < 0;
	case ARM_CHANGED:
		return fprintf(f, "arm-boot's state (%s) is there, and its files changed since (or cannot be read): boottrace disarm-boot says which\n", loader) < 0;
	default:
		return 0;
	}
}

int rp_print_head(const struct rp_head *h, FILE *f)
{
	char which[48];

	if (h->this_boot)
		snprintf(which, sizeof(which), "this boot");
	else
		snprintf(which, sizeof(which), "an earlier boot, --boot %ld", h->offset);
	if (h->utc)
		fprintf(f, "boot %s (%s): its record %s, collected %s\n", h->boot_id, which, h->path, h->utc);
	else
		fprintf(f, "boot %s (%s): its live snapshot %s, not yet a record (boottrace collect makes one)\n", h->boot_id, which, h->path);
	rp_print_armed(h->armed, h->loader, f);
	return fputc('\n', f) == EOF;
}
