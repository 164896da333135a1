#!/usr/bin/env bash
# Each bundled PyTorch app's default configuration on one GPU, as a user runs it (the app's own
# defaults for precision, compile and batch on that device), one fresh process each:
#     bash benchmarks/gpu_apps.sh OUT_DIR [STEPS] [WARMUP] [SECONDS_PER_APP]
# Writes OUT_DIR/results.jsonl (each app's JSON result line, samples/s and MFU against the
# runtime's peak table) and OUT_DIR/APP.log; an app that fails or runs past its time is recorded
# with its exit code and the run goes on. No test runs this (speed lives in benchmarks).
set -u -o pipefail
out=${1:?usage: gpu_apps.sh OUT_DIR [STEPS] [WARMUP] [SECONDS_PER_APP]}
steps=${2:-40}
warmup=${3:-10}
limit=${4:-100}
mkdir -p "$out"
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda,
      torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no GPU")' | tee "$out/device.txt"
for app in cosmictagger resnet50 gpt unet3d anisosgs pointnet qcnn ffn; do
    start=$(date +%s)
    timeout "$limit" python3 -m "workloads.$app" --device cuda --steps "$steps" --warmup "$warmup" \
        >"$out/$app.json" 2>"$out/$app.log"
    rc=$?
    line=$(tail -n 1 "$out/$app.json")
    case $line in "{"*"}") ;; *) line=null ;; esac
    printf '{"app": "%s", "rc": %d, "wall_s": %d, "result": %s}\n' "$app" "$rc" \
        "$(($(date +%s) - start))" "$line" | tee -a "$out/results.jsonl"
done
