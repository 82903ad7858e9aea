// SPDX-License-Identifier: GPL-2.0
/*
 * fault.c - the debugfs fault knobs' counting (Documentation/debugfs.rst):
 * a knob holds N, and the Nth operation it guards from when it was set
 * fails; a device's knobs are its struct nrsim_dev_faults.  A leaf: it
 * calls nothing else of the module.
 */
#include <linux/atomic.h>

#include "nrsim.h"

/**
 * nrsim_fault_hit() - count one operation against a debugfs fault knob
 *	(netdevsim style: the knob holds N; the Nth operation from when it
 *	was set fails, and the knob is 0 again).
 * @knob: the knob.
 *
 * Return: true when this operation must fail.
 */
bool nrsim_fault_hit(atomic_t *knob)
{
	int v = atomic_read(knob);

	while (v > 0) {
		if (atomic_try_cmpxchg(knob, &v, v - 1))
			return v == 1;
	}
	return false;
}

/**
 * nrsim_fault_init() - a device's debugfs fault knobs, all 0 (off); they
 *	hold nothing, so there is no exit.
 * @nd: the device.
 */
void nrsim_fault_init(struct nrsim_device *nd)
{
	atomic_set(&nd->fault.hbm_alloc_nth, 0);
	atomic_set(&nd->fault.copyin_nth, 0);
	atomic_set(&nd->fault.reloc_nth, 0);
	atomic_set(&nd->fault.run_nth, 0);
}
