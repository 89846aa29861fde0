# On the host: the guest's function_graph recording drawn by headless chromium
# (tests/e2e/view_calls.mjs), checked by test_view.py's view-function-graph.
[ "$CASE_RC" = 0 ] || fail "the guest part failed (status ${CASE_RC:-none}): see its output above"
e2e=$LAB_SRC/tests/e2e
if ! command -v node >/dev/null || [ ! -d "$e2e/node_modules/playwright-core" ]; then
	echo "no node or playwright-core in tests/e2e (make deps installs them): view not drawn"
	exit 77
fi
ok python3 "$e2e/test_view.py" view-function-graph --progs "$(dirname "$TRACEKIT")/tests/progs" \
	--funcgraph "$(dirname "$CONSOLE")/fg.dat"
has '^ok: view-function-graph$'
