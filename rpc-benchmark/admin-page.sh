#!/usr/bin/env bash
# The README's pictures of the admin page, from a real run: bash rpc-benchmark/admin-page.sh
# Runs the demo with both sides' admin pages on (the provider's on 22222, the consumer's on 22223) and two callers
# calling, opens each page in the system's headless Chromium (/usr/bin/chromium, Debian's chromium package) and
# saves it after a minute of its polls, so that its chart has a history: docs/admin-page.png (the consumer's) and
# docs/admin-page-provider.png. Takes about five minutes; ports 22222 and 22223 must be free.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /usr/bin/chromium ] || { echo "needs /usr/bin/chromium: apt-get install chromium" >&2; exit 1; }
mvn -B -q -DskipTests install
log=rpc-benchmark/target/admin-page-demo.log
mvn -B -q -pl rpc-benchmark exec:java -Dexec.args="--admin-seconds 240" >"$log" 2>&1 &
demo=$!
trap 'kill "$demo" 2>/dev/null || true' EXIT
for _ in $(seq 120); do
  grep -q '^admin pages:' "$log" && break
  kill -0 "$demo" 2>/dev/null || { echo "the demo ended before its load began:" >&2; cat "$log" >&2; exit 1; }
  sleep 1
done
grep -q '^admin pages:' "$log" || { echo "the demo's load did not begin within 120 s:" >&2; cat "$log" >&2; exit 1; }
shoot() {
  mvn -B -q -pl rpc-config test -Dtest='AdminPageTest#savesTheAdminPageOfARunningFerry' \
    -Dsurefire.failIfNoSpecifiedTests=false "-Dferry.adminPage.url=http://127.0.0.1:$1/" \
    "-Dferry.adminPage.screenshot=$PWD/$2"
}
shoot 22223 docs/admin-page.png
shoot 22222 docs/admin-page-provider.png
wait "$demo"
tail -2 "$log"
