# On the host: the oops as the guest's console caught it (the whole console log, kernel
# boot lines, carriage returns and the lab's own lines around it) decodes the same.
[ "$CASE_RC" = 0 ] || fail "the guest part failed (status ${CASE_RC:-none}): see its output above"
ok tk oops --modules "$LAB_KMOD/oops" --json "$CONSOLE"
module_oops_decoded oops
