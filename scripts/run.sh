#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - the main job (make run): boot the VM, load the module, show the
# simulated device.  Expects make all to have run.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
cat > build/run-vm.sh <<'VM'
set -e
echo "== insmod neuronsim.ko arch=trn2"
insmod /lib/modules/neuronsim.ko arch=trn2
echo "== neuronsim info"
neuronsim info
echo "== rmmod neuronsim"
rmmod neuronsim
VM
bash scripts/vm.sh -t 300 -l build/run-serial.log build/run-vm.sh
