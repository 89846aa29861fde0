# lab: append oops=panic
# With oops=panic the same oops panics the kernel ("Fatal exception"); the guest dies
# (panic=-1 reboots, qemu's -no-reboot ends it), so only its console tells: the host part
# (oops-panic.host.sh) decodes it.
need_module oops
insmod "$KO"
fail "the guest lives on after an oops with oops=panic"
