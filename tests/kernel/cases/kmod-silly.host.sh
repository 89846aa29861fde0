# On the host: tracekit view of the guest's recording, drawn by headless chromium
# (tests/e2e/view_browser.mjs): a search for me_silly lists the module's events with
# their fields in the module's print format.
[ "$CASE_RC" = 0 ] || fail "the guest part failed (status ${CASE_RC:-none}): see its output above"
e2e=$LAB_SRC/tests/e2e
if ! command -v node >/dev/null || [ ! -d "$e2e/node_modules/playwright-core" ]; then
	echo "no node or playwright-core in tests/e2e (make deps installs them): view not drawn"
	exit 77
fi
ok tk view -i "$(dirname "$CONSOLE")/silly.dat" -o silly.html
ok node "$e2e/view_browser.mjs" "$CASE_DIR/silly.html" --search me_silly
has '"first_row":"[^"]*me_silly[^"]*time=[0-9]+ count=[0-9]+'
has '"errors":\[\]'
