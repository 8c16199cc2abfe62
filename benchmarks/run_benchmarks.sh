#!/usr/bin/env bash
# Runs the benchmark program, writes the raw JSON and prints the summary table.
set -euo pipefail
build="${1:-build-bench}"
out="$build/benchmarks/bench.json"
"$build/benchmarks/wg_bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out="$out" --benchmark_out_format=json
echo "raw results: $out"
