#!/usr/bin/env bash
# Records Nsight Compute counters for the memory-pattern launches on a real GPU, so the
# simulator's counters can be checked against hardware (tests/validation, test engine.trace).
# Run from the repository root on the GPU machine (needs ncu and the warpscope CLI built there):
#   scripts/validate-metrics.sh [build-dir] [output.csv]
set -euo pipefail
build=${1:-build-gpu}
out=${2:-tests/validation/ncu-h100.csv}
metrics=(
  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
  smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct
  smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
  smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  smsp__inst_executed.sum
  smsp__sass_branch_targets_threads_divergent.sum
)
list=$(IFS=,; echo "${metrics[*]}")
ncu --clock-control none --csv --page raw --metrics "$list" \
    "$build/app/cli/warpscope" run tests/validation/memory-patterns.json --backend gpu > "$out.tmp"
# Keep only the CSV rows (ncu prints the program's own output and ==PROF== lines too).
grep '^"' "$out.tmp" > "$out"
rm -f "$out.tmp"
echo "wrote $out ($(($(wc -l < "$out") - 2)) kernel rows)"
