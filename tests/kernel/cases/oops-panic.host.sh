# On the host: the guest died in the panic (its part never finished), and the console
# decodes to the module's oops with verdict panic.
[ -z "$CASE_RC" ] || fail "the guest part finished (status $CASE_RC): no panic"
ok tk oops --modules "$LAB_KMOD/oops" --json "$CONSOLE"
module_oops_decoded panic
has '"panic_message":"Fatal exception"'
