#!/bin/bash
# run_all.sh OUT [main|power|intk|data|data2|PARTS...]: build the capture programs (if the
# carried binaries do not run) and capture into OUT/cap, with nvidia-smi
# sampled every 20 ms in the background; packs OUT/cap_BATCH.tar.gz.
#   main   E11 memory, E12 launch, E17 idle gaps, E13 cooperative, E14 green
#          contexts and two streams, E15 heterogeneous CTAs
#   power  E16 power mixes (cap_power, then power_gemm.py)
#   intk   E16's mixes with int_kernel's constant even, then int32 odd (E28)
#   data   E28 the FFMA's data: fma_data_kernel with three multipliers, twice,
#          between E16's FP32 and INT32 mixes and its SGEMM (board offsets)
#   data2  E28 fma_reg_kernel's quiet and random operands (reg_sparse,
#          reg_rand_b, reg_rand_bc), twice, after fp32_8cta and fp32_sparse
#   sdata  E32 shared memory's data (smem_zero, smem_rand) and the SGEMM on
#          zeros against random inputs, each pair twice, after fp32_8cta
set -u
OUT=$1; BATCH=${2:-main}
cd "$(dirname "$0")"
D=$OUT/cap; mkdir -p "$D"
T0=$(date +%s)
log() { echo "[$(( $(date +%s) - T0 ))s] $*"; }

ok=1; NEED="cap_mem cap_launch cap_coop cap_green cap_hetero cap_power"; MK=
case $BATCH in data*|sdata) NEED=cap_power MK=cap_power;; esac
for p in $NEED; do
  [ -x $p ] || { ok=0; break; }; ./$p >/dev/null 2>&1; [ $? -eq 2 ] || { ok=0; break; }
done
if [ $ok = 0 ]; then log "building"; make -B -j16 $MK >"$D/build.log" 2>&1 || { cat "$D/build.log"; exit 1; }; fi
log "built"

{ echo "key,value"; echo "date_utc,$(date -u +%FT%T)"; echo "tz,$(date +%Z)"; echo "uname,$(uname -r)";
  echo "driver,$(nvidia-smi --query-gpu=driver_version --format=csv,noheader)"; echo "batch,$BATCH";
  echo "gpu,$(nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tr , ';')";
  echo "modes,$(nvidia-smi --query-gpu=compute_mode,persistence_mode,power.limit,clocks.max.sm --format=csv,noheader | tr , ';')"; } > "$D/run_$BATCH.csv"
nvidia-smi -q -d CLOCK,PERFORMANCE,POWER,TEMPERATURE > "$D/smi_before_$BATCH.txt" 2>&1

# the fields this driver knows, in this order (an unknown one fails the whole query)
F=timestamp
for q in clocks.sm clocks.mem power.draw power.draw.instant power.draw.average temperature.gpu temperature.memory \
         clocks_event_reasons.active clocks_throttle_reasons.active clocks_event_reasons.sw_power_cap \
         clocks_throttle_reasons.sw_power_cap utilization.gpu pstate; do
  nvidia-smi --query-gpu=$F,$q --format=csv,noheader,nounits >/dev/null 2>&1 && F=$F,$q
done
echo "$F" > "$D/smi_raw_$BATCH.csv"; log "smi fields: $F"
nvidia-smi --query-gpu=$F --format=csv,noheader,nounits -lms 20 >> "$D/smi_raw_$BATCH.csv" 2>&1 &
SMI=$!
sleep 1

step() { local t=$1; shift; log "start $*"; timeout $t "$@" > >(tee -a "$D/log_$BATCH.txt") 2>&1; log "end rc=$? $*"; }
if [ "$BATCH" = main ]; then
  step 150 ./cap_mem "$D"
  step 90 ./cap_launch "$D"
  for i in 1 2 3; do step 20 ./cap_coop "$D" first l$i; done
  for i in 1 2 3; do step 20 env CUDA_MODULE_LOADING=EAGER ./cap_coop "$D" first e$i; done
  step 120 ./cap_coop "$D" sweep
  step 60 ./cap_green "$D"
  step 30 ./cap_hetero "$D"
elif [ "$BATCH" = power ]; then
  sleep 2
  step 60 ./cap_mem "$D" l2map,hbm
  step 120 ./cap_power "$D" 7
  step 80 python3 power_gemm.py "$D" 7
  sleep 2
elif [ "$BATCH" = data ]; then
  sleep 2
  step 120 ./cap_power "$D" 5 fp32_8cta,fp32_1cta,int32,fp32_sparse,fp32_ones,fp32_dense
  step 60 ./cap_power "$D" 5 fp32_sparse,fp32_dense,fp32_ones
  step 40 python3 power_gemm.py "$D" 5 sgemm_fp32
  sleep 2
elif [ "$BATCH" = intk ]; then
  # int_kernel's constant is 2654435769 ^ argc: even with two arguments
  # (as E16 ran it on the H200), odd with three
  sleep 2
  step 120 ./cap_power "$D" 5
  step 60 ./cap_power "$D" 5 int32,fp32_8cta
  sleep 2
elif [ "$BATCH" = data2 ]; then
  sleep 2
  step 120 ./cap_power "$D" 5 fp32_8cta,fp32_sparse,reg_sparse,reg_rand_bc,reg_rand_b
  step 120 ./cap_power "$D" 5 fp32_sparse,reg_sparse,reg_rand_bc,reg_rand_b
  sleep 2
elif [ "$BATCH" = sdata ]; then
  sleep 2
  step 60 ./cap_power "$D" 5 fp32_8cta,smem_zero,smem_rand
  step 60 ./cap_power "$D" 5 smem_zero,smem_rand
  step 90 python3 power_gemm.py "$D" 5 sgemm_fp32,sgemm_zeros,sgemm_fp32,sgemm_zeros
  sleep 2
else
  step 200 "${@:2}"
fi
kill $SMI; wait $SMI 2>/dev/null
make sass ${MK:+PROGS=$MK} >/dev/null 2>&1 && mkdir -p "$D/sass" && for f in sass/*.sass; do gzip -c "$f" > "$D/sass/$(basename $f).gz"; done
nvidia-smi -q -d CLOCK,PERFORMANCE,POWER,TEMPERATURE > "$D/smi_after_$BATCH.txt" 2>&1
python3 smi2csv.py "$D/smi_raw_$BATCH.csv" "$D/smi_$BATCH.csv" || log "smi2csv failed"
log "packing"
for f in "$D"/*.csv "$D"/*.txt; do [ $(stat -c %s "$f") -gt 100000 ] && gzip "$f"; done
tar czf "$OUT/cap_$BATCH.tar.gz" -C "$OUT" cap
ls -la "$D" "$OUT"
log "done"
