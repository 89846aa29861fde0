# lab: fresh
# examples/kernel/oops stores through NULL+8 in its init: insmod dies with a real oops and
# the kernel goes on (tainted D).  tracekit oops --dmesg finds it in the guest's own log
# (read without waiting); the host part (oops.host.sh) decodes the console that caught it.
need_module oops
refused insmod "$KO"
ok tk oops --dmesg --modules "$LAB_KMOD/oops" --json
module_oops_decoded oops
ok tk oops --dmesg --modules "$LAB_KMOD/oops"
has '^  where: +my_oops_init\+0x[0-9a-f]+/0x[0-9a-f]+ \[oops\]  [^ ]*/oops/oops\.c:[0-9]+$'
has 'probably struct my_data\.flags'
