#!/bin/sh
# `make run`: a short tour answering the three planning questions with the
# built-in database.  Every number printed is traceable to docs/models/*.md.
set -eu
gp=${1:-build/gpuplan}

banner() { printf '\n==== %s ====\n$ gpuplan %s\n\n' "$1" "$2"; }
run() { title=$1; shift; banner "$title" "$*"; "$gp" "$@"; }

run "The database: which GPUs gpuplan knows" hw list gpus
run "Roofline: why an fp32 vector add on an RTX 4090 waits on memory" \
    roofline --gpu 4090 --precision fp32 --kernel vector-add --n 100M
run "Roofline: a 4096^3 bf16 GEMM on an H100 is compute-bound" \
    roofline --gpu h100 --precision bf16 --kernel gemm --m 4096 --n 4096 --k 4096
run "Q1 - How many GPU-days to train GPT-3 175B on 300B tokens on H100s?" \
    train --gpu h100 --gpus 1024 --model gpt-3-175b --tokens 300B --mfu 0.5
run "Q2 - What tokens/s can Llama-2-7B reach on an RTX 4090, fp16 vs Q4_0?" \
    decode --gpu 4090 --model llama-2-7b --weights fp16 --context 4096
run "Q2 (cont.) - the same model quantised to Q4_0" \
    decode --gpu 4090 --model llama-2-7b --weights q4_0 --context 4096
run "Q2 (cont.) - Diagnose: a 13B fp16 model measured at 25 tok/s on an A100 - where is the time?" \
    decode --gpu a100 --params 13B --measured 25
run "Q3 - What does the gradient AllReduce of a 7B fp16 model cost on 4 GPUs over PCIe 4.0?" \
    allreduce --link pcie4-x16 --gpus 4 --bytes 14GB
run "Q3 (cont.) - Will adding cards help? 2 s compute step, no overlap" \
    scale --gpu 4090 --link pcie4-x16 --params 7B --step-compute-s 2 --gpus 1,2,4,8
run "Q3 (cont.) - Rented 8 cards in two nodes of 4 on a 100 Gb/s link: faster than 4?" \
    scale --gpu a100-pcie-80gb --link pcie4-x16 --params 7B --step-compute-s 2 --gpus 1,2,4,8 \
    --gpus-per-node 4 --scale-out roce-100 --strong
printf '\nMore: gpuplan --help, docs/, and examples/*.c for the library API.\n'
