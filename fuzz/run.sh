#!/usr/bin/env bash
# Runs each fuzz target for FUZZ_SECONDS (default 180) from its seed corpus:
#   fuzz/run.sh BUILD_FUZZ_DIR WARGAME_BIN [TARGET...]
# Findings are written to BUILD_FUZZ_DIR/findings/TARGET/; copy each into
# fuzz/regressions/TARGET/ (with a name saying what it breaks) once fixed, so
# that `make test` replays it.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$1 bin=$2
shift 2
targets=${*:-game_spec action_text save ruleset scenario net}
secs=${FUZZ_SECONDS:-180}
corpus=$build/corpus
[ -d "$corpus/seeds/save" ] || "$src/fuzz/corpus.sh" "$src" "$bin" "$corpus/seeds" >/dev/null
status=0
for t in $targets; do
  mkdir -p "$corpus/work/$t" "$corpus/seeds/$t" "$build/findings/$t"
  echo "== fuzz_$t for ${secs}s"
  "$build/fuzz/fuzz_$t" "$corpus/work/$t" "$corpus/seeds/$t" "$src/fuzz/regressions/$t" \
    -max_total_time="$secs" -max_len=8192 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build/findings/$t/" 2>&1 | grep -E "^(#[0-9]+ *(DONE|INITED)|==|SUMMARY|stat::number_of_executed_units|fuzz_)" || true
  if [ -n "$(ls -A "$build/findings/$t")" ]; then
    echo "fuzz_$t FOUND: $(ls "$build/findings/$t")"
    status=1
  fi
done
exit $status
