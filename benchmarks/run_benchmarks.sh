#!/usr/bin/env bash
# `make bench`: runs the benchmark program (5 repetitions, medians), writes the raw
# JSON, times `wargame simulate` with 1 and 2 threads when that program exists, and
# prints the summary table (benchmarks/summarize.py).
#   usage: run_benchmarks.sh [build-dir]     (default build-bench)
#   WG_BENCH_FILTER=regex limits the benchmarks run (Google Benchmark --benchmark_filter).
set -euo pipefail
build="${1:-build-bench}"
src="$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")"
out="$build/benchmarks/bench.json"
sim="$build/benchmarks/simulate.txt"
log="$build/benchmarks/bench.log"
echo "running $build/benchmarks/wg_bench (5 repetitions; console output in $log) ..."
"$build/benchmarks/wg_bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_filter="${WG_BENCH_FILTER:-.}" \
  --benchmark_out="$out" --benchmark_out_format=json > "$log" 2>&1 || { tail -20 "$log"; exit 1; }

# wargame simulate: the same games with 1 and 2 threads (wall time).
: > "$sim"
wargame="$build/examples/wargame/wargame"
games="${WG_SIMULATE_GAMES:-400}"
if [ -x "$wargame" ] && "$wargame" simulate --help > /dev/null 2>&1; then
  for spec in stars_and_bars "$src/tests/data/rulesets/skirmish"; do
    if "$wargame" simulate "$spec" --games 2 --threads 1 --seed 1 > /dev/null 2>&1; then
      for t in 1 2; do
        start=$(date +%s.%N)
        "$wargame" simulate "$spec" --games "$games" --threads "$t" --seed 1 > /dev/null
        end=$(date +%s.%N)
        echo "threads=$t seconds=$(python3 -c "print($end - $start)") spec=$spec games=$games" >> "$sim"
      done
      break
    fi
  done
  [ -s "$sim" ] || echo "skipped=simulate_refused_the_arguments" > "$sim"
else
  echo "skipped=wargame_simulate_not_built" > "$sim"
fi

echo
python3 "$src/benchmarks/summarize.py" "$out" "$sim"
echo "raw results: $out (simulate: $sim, console: $log)"
