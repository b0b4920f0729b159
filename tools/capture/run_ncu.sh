#!/bin/bash
# run_ncu.sh OUT [e36|strides|carve|warps|pref|layout|spectrum|ways|ways2|conflict]: E36 (issue 10): cap_ncu's launches under Nsight Compute's
# hardware counters (ncu --clock-control none: the clocks are left alone;
# ncu flushes the caches before each replay). Writes OUT/cap/{ncu.csv,
# ncu_launches.csv, metrics_query.txt, meta.csv, smi_before.txt, log.txt}.
set -u
OUT=$1; PART=${2:-e36}
cd "$(dirname "$0")"
D=$OUT/cap; mkdir -p "$D"
log() { echo "[$(date +%T)] $*" | tee -a "$D/log.txt"; }
nvcc -O3 -arch=sm_90 -o cap_ncu cap_ncu.cu >"$D/build.log" 2>&1 || { cat "$D/build.log"; exit 1; }
log "built"
nvidia-smi -q -d CLOCK,PERFORMANCE,POWER,TEMPERATURE > "$D/smi_before.txt" 2>&1
ncu --query-metrics > "$D/metrics_query.txt" 2>&1
ncu --query-metrics-mode suffix --metrics lts__t_sectors,l1tex__t_sectors_pipe_lsu_mem_global_op_ld > "$D/metrics_suffix.txt" 2>&1
log "queried $(wc -l < "$D/metrics_query.txt") lines"
grep -o -E "(lts|l1tex|dram|fbpa)__[a-z0-9_]*(fabric|srcunit|srcnode)[a-z0-9_]*" "$D/metrics_query.txt" | sort -u | head -60 | tee -a "$D/log.txt"
# the counters wanted; each kept only where this ncu knows its base name
M=
for m in l1tex__t_requests_pipe_lsu_mem_global_op_ld l1tex__t_sectors_pipe_lsu_mem_global_op_ld \
         l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss \
         l1tex__m_xbar2l1tex_read_sectors \
         lts__t_sectors_op_read lts__t_sectors_op_read_lookup_hit lts__t_sectors_op_read_lookup_miss \
         lts__t_sectors_srcunit_tex_op_read lts__t_sectors_srcunit_tex_op_read_lookup_hit lts__t_sectors_srcunit_tex_op_read_lookup_miss \
         lts__t_sectors_srcunit_ltcfabric lts__t_sectors_srcunit_ltcfabric_op_read lts__t_sectors_srcunit_ltcfabric_lookup_hit \
         lts__t_sectors_srcunit_ltcfabric_lookup_miss lts__t_requests_srcunit_ltcfabric \
         lts__t_sectors_op_write lts__t_sectors_srcunit_tex_op_write \
         lts__d_sectors_fill_sysmem lts__d_sectors_fill_device \
         dram__bytes_read dram__bytes_write gpu__time_duration sm__cycles_elapsed \
         launch__shared_mem_config_size launch__occupancy_limit_shared_mem; do
  # launch attributes are not in the query's list (E20c read them so)
  if [ "${m#launch__}" != "$m" ] || grep -q -E "(^|[[:space:]])$m([[:space:]]|$)" "$D/metrics_query.txt"; then
    case $m in gpu__time_duration|sm__cycles_elapsed) M=$M,$m.max;; launch__*) M=$M,$m;; *) M=$M,$m.sum;; esac
  else log "not known here: $m"; fi
done
M=${M#,}
log "metrics: $M"
timeout 500 ncu --clock-control none --csv --print-units base -k regex:'stream_kernel|add_kernel|ncu_chase|ncu_walk' \
    --metrics "$M" ./cap_ncu "$D" $PART > "$D/ncu.csv" 2> "$D/ncu_err.txt"
log "ncu rc=$? rows=$(wc -l < "$D/ncu.csv")"
tail -5 "$D/ncu_err.txt"
# no counters (a runtime where ncu cannot read them): the same launches, timed only
if ! grep -q '"lts__' "$D/ncu.csv"; then
  log "no counters: timing only"; mkdir -p "$D/plain"; timeout 200 ./cap_ncu "$D/plain" $PART > "$D/plain/log.txt" 2>&1; log "plain rc=$?"
fi
grep -c '^"' "$D/ncu.csv"
# the full counter list stays behind (1 MB; log.txt names what was asked)
mv "$D/metrics_query.txt" /tmp/ 2>/dev/null
