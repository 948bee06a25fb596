/* Decode profiles of inference engines: achieved bandwidth fractions, fixed
 * per-layer cost per step, dequantisation work and the prefill's matmul
 * rate, each with its source or derivation, and the build each engine runs
 * as on another vendor's GPUs.  Data only; the model is in infer.c.  MODEL:
 * docs/models/inference.md §4 (Engine profiles) and §5.3.
 *
 * How the figures were derived (numbers assume the GPU's achievable
 * bandwidth = datasheet x ~0.9, the usual hwdb efficiency.memory):
 *   t_step = weight_bytes / (bw_achievable x eff) + layers x overhead x
 *            (2 GHz / boost clock), with two rows of one engine on one GPU at
 *            two weight sizes separating eff from the fixed overhead, then
 *            checked across other GPUs and models of the same source. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/infer.h"
#include "db_int.h"

static const gp_engine engines[] = {
    {"generic", "generic engine (default)", 0.85, 0.80, 40e-6, 8.0,
     "gpuplan default: midway between the profiles below (a CUDA-graph engine"
     " at ~85% of achievable bandwidth (80% on quantised weights), 40 us/layer at 2 GHz); "
     "docs/models/inference.md"
     "; MoE: 52 us more per MoE layer at 2 GHz, midway between the"
     " llama.cpp (47) and vllm (57) figures"
     "; prefill 0.845 of the expected matmul rate, midway between the"
     " tensorrt-llm (0.865) and vllm (0.824) figures, and 0.743 for 8-bit"
     " matmuls, the one measured 8-bit figure (tensorrt-llm's); tiled"
     " library GEMMs, each layer GEMM on its roofline over whole waves"
     " (docs/models/inference.md 5.4)",
     0, 0.0, 52e-6, 0.845, 0.743, 0.0, 0.0, 1, 0, 0.0, 0, 0.0},
    {"llama.cpp", "llama.cpp (CUDA backend, 2025-26 builds)", 0.90, 0.90, 35e-6, 8.0,
     "ggml-org/llama.cpp discussion #15013 CUDA scoreboard (Llama 2 7B Q4_0"
     " tg128, no FA; builds 2025-26): RTX 5090 290.02, 4090 186.21, 6000 Ada"
     " 176.07, 3090 158.16, 4080 142.49, A6000 138.73 tok/s, transcribed in a"
     " public repo; least squares over the six (output matrix at Q6_K, as"
     " GGUF Q4_0 files store it): 0.90 of achievable bw on Q4_0 weights and"
     " 35 us/layer at 2 GHz (rms 2.6 %); eff_float 0.90"
     " carried over from the 2023 profile (F16 kernels unchanged in kind);"
     " dequant: mmvq dp4a on CUDA cores ~8 FLOP/weight, per sequence in"
     " batches up to 8 (ggml-cuda/mmvq.cu calls vec_dot_q_cuda for each"
     " column; docs/models/inference.md 2); multi-GPU:"
     " --split-mode layer, the default since PR #4766; per-SM stream limit"
     " 11.0 GB/s (Little's law; binds on HBM parts): the same scoreboard's"
     " H100 80GB (HBM3: the SXM part, 132 SMs) tg128 267.81 tok/s (build"
     " 5143fa8), after 32 x 35 us x 2/1.98 GHz = 1.131 ms of fixed"
     " cost, streams its 3.789 GB at 1.456 TB/s, 11.03 GB/s per SM, 0.47 of"
     " the achievable 3.08 TB/s; least squares over the 27 GPUs' checked"
     " rows of the scoreboard is flat from 10.6 to 11.2 GB/s (rms 8.2 %;"
     " 12.7 % without a limit), the Dec 2023 builds' 11.2 within 2 %; it"
     " moves the H100 row from +49.5 % to -0.2 %, A100 SXM from +11.7 % to"
     " +9.6 %, RTX 5070 from +5.7 % to -2.8 %, 5070 Ti by 0.4 points, no"
     " other checked row; 16-bit weights: PR #6017's A100 80GB PCIe Llama 7B"
     " F16 tg128 74.77 (a March 2024 build) reads +4.9 % with it, +31 %"
     " without (docs/models/inference.md 4.1)"
     "; MoE: 47 us more per MoE layer at 2 GHz (router, top-k, expert-"
     "indexed GEMVs), least squares in log over four llama-bench tg128 rows"
     " of 2025-26 builds (docs/models/inference.md 8.2): RTX 4090 qwen3moe"
     " 30B.A3B Q4_0 161.55 and gpt-oss 20B MXFP4 MoE 186.10 (PR #16834, Oct"
     " 2025), RTX 5090 gpt-oss 20B 362.59 (build 7100) and"
     " Qwen3-Coder-30B-A3B Q4_K_M 243.46 (LM Studio, 2026): -16 % to +19 %"
     "; prefill on quantised weights: MMQ kernels at most 476 FLOP per clock"
     " per SM at the boost clock, the median of 26 GPUs' llama-bench pp512"
     " rows of the same scoreboard (Llama 2 7B Q4_0, -fa 0): 280 (Quadro RTX"
     " 8000) to 568 (RTX 5070); A100 80GB 4849.53 t/s is 423, H100 80GB"
     " 9918.34 is 508, RTX 4090 11992.70 is 497 (docs/models/inference.md 5.3);"
     " the same rate caps F16 weights' prefill on NVIDIA GPUs: XiongjieDai's"
     " May 2024 llama-bench rows (Llama 3 8B F16 pp512: 3090 4444.65, 4090"
     " 9382.00) read -5 % and +14 %, PR #6017's A100 80GB PCIe Llama 7B F16"
     " 8668.24 -37 % (+110 % at the full tensor rate)"
     "; KV cache: f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1"
     " (common/arg.cpp --cache-type-k/-v; q5_0, q5_1, iq4_nl since PR"
     " #6183, Mar 2024)",
     1, 11.0e9, 47e-6, 0.0, 0.0, 476.0, 0.0, 0, 0, 0.0, 1, 0.0},
    {"gpt-fast", "gpt-fast / torch.compile + CUDA graphs", 0.88, 0.74, 32e-6, 8.0,
     "pytorch-labs/gpt-fast READMEs (A100-80GB 330 W: Llama 2 7B bf16 104.9,"
     " int8 155.58, int4-g32 196.8; 70B int8 19.13, int4 25.25; bf16 TP"
     " 2/4/8 7B 168.84/254.02/328.43, 70B 21.32/38.01/62.50; Mixtral 8x7B"
     " int8 97.92, bf16 TP 2/4/8 96.67/155.35/227.82 tok/s): least squares"
     " in log over the 15, bf16 0.88 and int8/int4 0.74 of achievable bw,"
     " 32 us/layer at 2 GHz (45 us at 1.41 GHz), rms 5.3 %"
     "; MoE: no extra (the Mixtral rows fit with the dense profile)", 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1, 0, 0.0, 0, 0.0},
    {"mlc", "MLC LLM (TVM, CUDA graphs)", 0.90, 0.99, 32e-6, 4.0,
     "mlc-ai/llm-perf-bench README (q4f16_1 Llama2-7B/13B on RTX 4090 and"
     " 3090 Ti: 204.8/113.5 and 186.7/107.4 tok/s; least squares with the"
     " lm_head quantised as q4f16_1 stores it: 0.99 of achievable bw, 32 us"
     " per layer at 2 GHz, rms 2.8 %); eff_float assumed 0.90"
     "; MoE: 52 us per MoE layer assumed (generic; no MLC MoE row)", 0, 0.0, 52e-6, 0.0, 0.0, 0.0, 0.0, 0, 0, 0.0, 0, 0.0},
    {"exllama", "ExLlama (v1, GPTQ 4-bit; 2023)", 0.90, 0.92, 100e-6, 16.0,
     "mlc-ai/llm-perf-bench README Exllama column (4090 152.56/93.88, 3090 Ti"
     " 112.72/69.31 tok/s for Llama2-7B/13B): host-launched kernels ~80"
     " us/layer at 2.52 GHz; eff_float assumed 0.90; multi-GPU: gpu_split by"
     " layers"
     "; MoE: v1 runs no MoE models; the generic 52 us is kept for a MoE "
     "shape", 1, 0.0, 52e-6, 0.0, 0.0, 0.0, 0.0, 0, 0, 0.0, 0, 0.0},
    {"vllm", "vLLM / SGLang / LMDeploy (CUDA graphs, Marlin/AWQ kernels)", 0.85, 0.85, 25e-6,
     4.0,
     "CUDA-graph decode (25 us/layer at 2 GHz) at 0.85 of achievable bw;"
     " held against batch-1 rows (docs/models/inference.md 8.1): vLLM on"
     " H100 SXM Llama 3.1 8B TPOT 6.48 ms (yobitelcomm InferenceBench) and"
     " Qwen3-8B 7.22 ms (gpustack performance-lab), A100 40GB Llama 3.1 8B"
     " ~75 tok/s; LMDeploy TurboMind A100 Llama 2 7B/13B/70B-TP4, RTX 4090"
     " AWQ 7B 206.4 / 13B 115.8 tok/s (InternLM/lmdeploy docs/en/benchmark):"
     " -12 % to +11 %"
     "; MoE: 57 us more per MoE layer at 2 GHz: tenstorrent/tt-inference-"
     "server issue #340 (vLLM, A100 80GB, Qwen3-30B-A3B bf16, concurrency "
     "1: TPOT 9.6 ms)"
     "; prefill 0.824 of the expected matmul rate: LMDeploy TurboMind's first-"
     "token latency at 2048 prompt tokens, batch 1, A100-80G (InternLM/lmdeploy"
     " docs/en/benchmark/a100_fp16.md, v0.1.0a1: Llama 2 7B 0.139 s, 13B 0.242,"
     " 70B TP4 0.402) is 1.214, 1.178 and 1.227 x the model's with per-GEMM"
     " tiles (inference.md 5.4), median 1.214; no vLLM row of that kind was"
     " found (TensorRT-LLM's FP16 rows reach 0.865)"
     "; KV cache: the model's dtype (auto), fp8 = fp8_e4m3, fp8_e5m2"
     " (vLLM --kv-cache-dtype, engine args v0.5.3, vllm.config CacheDType"
     " v0.9; SGLang and TGI the same pair), int8 and int4 (LMDeploy"
     " --quant-policy 8 and 4, v0.4.0 on)",
     0, 0.0, 57e-6, 0.824, 0.0, 0.0, 0.0, 1, 0, 0.0, 0, 0.0},
    {"tensorrt-llm", "TensorRT-LLM / NIM", 0.82, 0.72, 25e-6, 4.0,
     "CUDA graphs as vLLM (25 us/layer at 2 GHz); 0.82 of achievable bw on"
     " 16-bit weights from TensorRT-LLM blogs/H100vsA100.md (GPT-J 6B FP16"
     " on A100 SXM 80GB, batch 1: 111 tok/s), 0.72 on FP8 weights from"
     " NVIDIA NIM 1.8.0 benchmarks (Llama 3.3 70B FP8 on 2 x H100 TP2,"
     " concurrency 1: ITL 18.58 and 18.91 ms)"
     "; MoE: 57 us per MoE layer assumed, as vllm (no TensorRT-LLM MoE "
     "batch-1 row)"
     "; prefill 0.865 of the expected matmul rate at 16 bits and 0.743 at"
     " 8, with per-GEMM tiles (inference.md 5.4): TensorRT-LLM"
     " docs/source/performance.md (v0.5, batch 1, 2048 input tokens,"
     " first-token latency): A100 SXM 80GB FP16 GPT-J 6B 129 ms, Llama 2 7B"
     " 133, 70B TP4 377, Falcon 180B TP8 509 = 1.252, 1.161, 1.151, 1.077 x"
     " the model's (median 1.156); FP8 on H100 SXM (the same table: 29, 36,"
     " 109, 205 ms), L40S (71, 73) and NIM 1.8.0 (Llama 3.3 70B FP8 on 2 x"
     " H100, concurrency 1, 5000 tokens: 406.77 ms) = 1.108 to 1.695 x the"
     " model at the 8-bit GEMM rate (efficiency.compute_fp8), median 1.346"
     "; 0.86 of achievable bw on weights narrower than 8 bits (W4A16 GEMV"
     " kernels): least squares over nvidia-holoscan/holohub issue #170"
     " (Jan 2024, TensorRT-LLM 4-bit Llama 2 7B / 13B, batch 1: RTX A6000"
     " 137.56 / 77.5, RTX 6000 Ada 186.58 / 105.28 tok/s, as AWQ int4 g128),"
     " rms 1.4 %; held out, TensorRT-LLM NVFP4 Llama 3.1 8B on a DGX Spark"
     " (38.8 tok/s): +0.2 %"
     "; KV cache: the model's dtype, FP8 and NVFP4 (TensorRT-LLM docs"
     " features/quantization, KvCacheConfig dtype), INT8 (examples'"
     " convert_checkpoint.py --int8_kv_cache)",
     0, 0.0, 57e-6, 0.865, 0.743, 0.0, 0.0, 1, 0, 0.86, 0, 0.0},
    {"exllamav2", "ExLlamaV2 (EXL2 / GPTQ 4-bit)", 0.90, 0.92, 38e-6, 16.0,
     "turboderp/exllamav2 README 'Performance' table, RTX 4090: Llama 2 7B"
     " EXL2 3.0/4.0/5.0 bpw 245/207/170, 70B 2.5 bpw 37, Llama 7B/13B GPTQ"
     " 198/111 t/s: least squares gives 0.92 of achievable bw and 30 us/layer"
     " at 2.52 GHz (38 at 2 GHz), rms 1.4 %; the same table's 33B GPTQ (48)"
     " and CodeLlama 34B 4.0 bpw (50) rows, not fitted: -2 %, -4 %;"
     " eff_float assumed; multi-GPU: gpu_split by layers"
     "; MoE: 52 us per MoE layer assumed (generic; no ExLlamaV2 MoE row)", 1, 0.0, 52e-6, 0.0, 0.0, 0.0, 0.0, 0, 0, 0.0, 0, 0.0},
    {"hf-transformers", "Hugging Face transformers (eager PyTorch)", 0.80, 0.50, 400e-6, 16.0,
     "h2oai/h2ogpt perf.md (Llama-2-7B 16-bit: 4090 40.9, A100 31.0 tok/s):"
     " eager launches ~300-600 us/layer; bitsandbytes 4/8-bit kernels well"
     " below the roof; multi-GPU: device_map=auto splits by layers"
     "; MoE: 400 us per MoE layer assumed (eager launches per routed "
     "expert; no measured row)", 1, 0.0, 400e-6, 0.0, 0.0, 0.0, 0.0, 1, 0, 0.0, 0, 0.0},
    {"llama.cpp-rocm", "llama.cpp (ROCm/HIP backend, AMD GPUs; 2025-26 builds)", 0.90, 0.92,
     127e-6, 8.0,
     "least squares over 14 llama-bench tg rows on AMD GPUs, ROCm/HIP"
     " builds b5616 to 2026 (docs/models/inference.md, Engine profiles):"
     " Llama 2 7B Q4_0 tg128 on MI300X 232.92, MI210 124.51, RX 7900 XT"
     " 116.15, PRO W7900 121.18 (ggml-org/llama.cpp discussion #15021, as"
     " quoted in a public research log); RX 7900 XTX llama 8B Q4_K_M tg64"
     " 105.75 (PR #26284) and tg128 90.04 (ROCm/ROCm issue #4868); Ryzen AI"
     " Max+ 395 (lhl/strix-halo-testing llm-bench summaries, llama.cpp-hip):"
     " Llama 2 7B Q4_0 48.28 and Q4_K_M 40.71, 8B Q4_K_M 37.24, 70B Q4_K_M"
     " 4.464, Qwen3-32B Q8_0 6.365, and Llama 3.2 3B Q4_K_M 74.98"
     " (geerlingguy/ai-benchmarks #21); RX 7900 XTX ranges of llama.cpp"
     " issue #20934: 0.92 of achievable bw on quantised weights and 127"
     " us/layer at 2 GHz (rms 9.7 %, -12 % to +27 %); eff_float 0.90"
     " carried over from the CUDA profile (no F16 row); prefill 0.43 of the"
     " expected matmul rate: the median of nine pp512/pp2048 rows of the same"
     " sources against the model (0.22 MI300X to 0.50 RX 7900 XTX); MoE: 47 us per MoE layer assumed (the CUDA profile's)"
     "; dequant 8 FLOP/weight, per sequence in batches up to 8 (HIP builds"
     " compile ggml-cuda/mmvq.cu, which calls vec_dot_q_cuda per column)"
     "; KV cache: f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1"
     " (common/arg.cpp --cache-type-k/-v; q5_0, q5_1, iq4_nl since PR"
     " #6183, Mar 2024)", 1, 0.0, 47e-6,
     0.43, 0.0, 0.0, 0.0, 0, 0, 0.0, 1, 0.0},
    {"llama.cpp-vulkan", "llama.cpp (Vulkan backend)", 0.90, 0.95, 38e-6, 8.0,
     "least squares over 18 llama-bench / Ollama tg rows of Vulkan builds:"
     " Ryzen AI Max+ 395 (lhl/strix-halo-testing, llama.cpp-vulkan: Llama"
     " 2 7B Q4_0 46.51 and Q4_K_M 48.49, 8B Q4_K_M 43.42, 70B Q4_K_M 5.057,"
     " Qwen3-32B Q8_0 6.440), RX 7900 XTX Llama 2 7B Q4_0 ~167-177 (llama.cpp"
     " issue #20934) and RTX 4090, 3080 Ti, 4070 Ti, 3060, 2080 Ti with Llama"
     " 3.2 3B, a 14B Qwen2 and TinyLlama at Q4_K_M (geerlingguy/ai-benchmarks"
     " README and issues #43, #46; builds b7340/b7474): 0.95 of achievable bw"
     " and 38 us/layer at 2 GHz (rms 6.3 %, -9 % to +15 %); eff_float 0.90"
     " assumed; prefill 0.50 of the expected matmul rate: the median of five"
     " pp512 rows against the model (RTX 3090 1.01 with coopmat2 to Ryzen AI"
     " Max+ 395 0.24); MoE: 47 us per MoE layer assumed (the CUDA profile's)"
     "; KV cache: f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1"
     " (common/arg.cpp --cache-type-k/-v; q5_0, q5_1, iq4_nl since PR"
     " #6183, Mar 2024)", 1, 0.0, 47e-6, 0.50, 0.0, 0.0, 0.0, 0, 0, 0.0, 0, 0.0},
    {"llama.cpp-sycl", "llama.cpp (SYCL backend, Intel GPUs)", 0.90, 0.90, 260e-6, 8.0,
     "two llama-bench tg128 rows on an Arc B580 (ggml-org/llama.cpp PR #13885:"
     " Qwen2 1.5B Q4_0 134.93, Llama 2 7B Q4_0 65.13) solve to 0.90 of"
     " achievable bw and 260 us/layer at 2 GHz; thin: the Arc A770's Llama 2"
     " 7B Q4_0 55 tok/s (docs/backend/SYCL.md, Feb 2025) asks ~340 us at the"
     " same efficiency; eff_float 0.90 assumed; prefill 0.31 of the expected"
     " matmul rate: the mean of the B580's two pp512 rows against the model"
     " (0.26, 0.36); MoE: 47 us per MoE layer assumed (the CUDA profile's)"
     "; KV cache: f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1"
     " (common/arg.cpp --cache-type-k/-v; q5_0, q5_1, iq4_nl since PR"
     " #6183, Mar 2024)", 1, 0.0, 47e-6, 0.31, 0.0, 0.0, 0.0, 0, 0, 0.0, 0, 0.0},
    {"llama.cpp-metal", "llama.cpp (Metal backend, Apple silicon; 2025-26 builds)", 1.0, 1.0,
     70e-6, 8.0,
     "least squares over 10 llama-bench tg rows of 2025-26 builds on eight"
     " Apple chips (docs/models/inference.md, Engine profiles): Llama 2 7B"
     " Q4_0 tg128 on M5 Pro 66.33 and M5 Max 119.92 (ggml-org/llama.cpp"
     " discussion #4167, build c1d0e7a, Aug 2026); M2 Ultra Qwen2.5-Coder-7B"
     " Q8_0 tg32 79.68 and gemma-3-4b QAT Q4_0 134.28 (llama.cpp"
     " benches/mac-m2-ultra, build 7948) and Qwen3 0.6B Q8_0 tg32 240.02"
     " (PR #26570, Aug 2026); M3 Ultra Llama 3.3 70B Q4_K_M tg128 14.41"
     " (geerlingguy/beowulf-ai-cluster #17, build 7315); M1 Ultra TinyLlama"
     " Q4_K_M tg128 242.56 (geerlingguy/ai-benchmarks #48, build 7825); M4"
     " Pro Qwen2.5-1.5B Q4_K_M tg256 at depth 4096 151.91 (build c1d0e7a);"
     " M1 Max and M4 Llama 3.1 8B Q4_K_M tg128 46.2 and 20.87"
     " (brand-o/normiebench #40, #3, Mar 2026): with the bandwidth fraction"
     " free the fit asks 1.17 of the copy-measured achievable bandwidth and"
     " 83 us/layer; held at 1 (the profile convention's limit), 70 us/layer"
     " at 2 GHz (rms 14 %, -19.5 % to +23 %, median -3 %, where the 2023"
     " profile reads them at median -13 %); eff_float held at 1 as the 2023"
     " profile's (no 16-bit row); prefill as the 2023 profile: 1 of the"
     " expected matmul rate at 16 bits, quantised at most 170 FLOP per clock"
     " per GPU core at the boost clock (four current-build pp rows read -16 %"
     " to +23 % against it); MoE: 47 us per MoE layer, the CUDA profile's,"
     " which puts the same M2 Ultra bench's gpt-oss-20b, gpt-oss-120b and"
     " Qwen3-Coder-30B-A3B Q8_0 tg32 rows (129.97, 85.60, 78.97) within 5 %"
     "; on the M5 generation's Neural Accelerators (Metal 4 tensor kernels,"
     " PR #16634 on; the entries' tensor rate) quantised prefill reaches at"
     " most 630 FLOP per clock per GPU core, the geometric mean (least"
     " squares in log) of three Q4_0 pp512 rows after the 32 x 70 us x"
     " 2/1.578 GHz of fixed cost: M5 Mistral 7B 608.05 (PR #16634 branch),"
     " 545; M5 Pro and M5 Max Llama 2 7B 1620.64 and 3219.99 (discussion"
     " #4167, build c1d0e7a), 678 and 680 (TTFT -13.5 %, +7.6 %, +7.8 %);"
     " 16-bit weights there at 1 of the expected tensor rate; its GEMV"
     " kernels (decode batches up to 8) stay on the ALUs"
     "; KV cache: f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1"
     " (common/arg.cpp --cache-type-k/-v; q5_0, q5_1, iq4_nl since PR"
     " #6183, Mar 2024)",
     1, 0.0, 47e-6, 1.0, 0.0, 170.0, 630.0, 0, 0, 0.0, 0, 0.0},
    {"vllm-rocm", "vLLM on ROCm (AMD Instinct; 2025 builds)", 0.78, 0.78, 45e-6, 4.0,
     "least squares over 12 benchmark_latency rows of vLLM on 8 x MI300X"
     " (TP8, FP8 Llama 3.1 70B and 405B, batch 1, 128 and 2048 prompt"
     " tokens, 2048 output; builds 0.8.5 to 0.11.1 of 2025): ROCm/vllm"
     " docs/dev-docker/README.md, v0.10.0 / ROCm 6.4.1, 70B 17.236 s and"
     " 17.500 s, 405B 48.453 and 48.362 s per request, and the same README's"
     " other releases (70B 15.254 to 16.154 s, 405B 47.150 to 48.138 s):"
     " 0.785 of achievable bw and 43.5 us/layer at 2 GHz with the collectives"
     " model's AllReduces (rms 3.8 %, -7 % to +6 %), rounded to 0.78 and 45"
     " (the v0.10.0 rows then -6 % to +1 %); the vllm profile was 16"
     " to 33 % too fast on them; eff_float assumed equal (no 16-bit row);"
     " TP8 rows only, so the per-layer figure also holds what the xGMI"
     " AllReduce model misses; prefill 0.824 and MoE 57 us carried over from"
     " the vllm profile (assumed)"
     "; KV cache: the model's dtype (auto), fp8 = fp8_e4m3, fp8_e5m2"
     " (vLLM --kv-cache-dtype, engine args v0.5.3, vllm.config CacheDType"
     " v0.9; SGLang and TGI the same pair), int8 and int4 (LMDeploy"
     " --quant-policy 8 and 4, v0.4.0 on)", 0, 0.0, 57e-6, 0.824, 0.0, 0.0, 0.0, 1, 0, 0.0, 0, 0.0},
    {"llama.cpp-2023", "llama.cpp (CUDA backend, Dec 2023 to May 2024 builds)", 0.90, 0.82, 58e-6, 8.0,
     "XiongjieDai/GPU-Benchmarks-on-LLM-Inference README (Llama 2 7B Q4_0/F16,"
     " 70B Q4_0 on 9 NVIDIA GPUs, Dec 2023 builds: F16-Q4_0 time difference"
     " gives ~0.9 of achievable bw, remainder ~46 us/layer at 2.52 GHz; Q4_0"
     " weights at 0.82 with the output matrix at Q6_K); dequant: mmvq dp4a on CUDA cores ~8"
     " FLOP/weight (explains A100 < 4090 on Q4_0), 2.8 x a format's"
     " dequant_scale where that is above 1: llama.cpp PR #4766's Jan 2024"
     " tg128 rows of LLaMA 7B Q2_K and Q3_K_S (RTX 3090 92.69 / 87.26, P40"
     " 33.52 / 30.93 t/s) ask 5.0 and 5.45 x Q4_0's unpacking, 3.3 and 2.4"
     " x the current builds' 1.5 and 2.3; least squares in log over the"
     " four, rms 14 % (3090 +12 %, -15 %; P40 +18 %, -12 %), was +82 % to +139 %;"
     " Q4_0, Q4_1, Q4_K_S, Q5_0 rows unchanged (docs/models/inference.md 2);"
     " May 2024 builds (b2796-b2843, the same README's Llama 3 8B Q4_K_M and"
     " F16 tg rows) read -15 % to +6 % on GDDR cards"
     "; multi-GPU: --split-mode"
     " layer, the default since PR #4766 (XiongjieDai May 2024: 8B Q4_K_M"
     " 130.6 tok/s on one 4090, 124.7 on two, 118.1 on eight); per-SM"
     " stream limit 11.2 GB/s: the same README's A100 80GB and H100 PCIe rows"
     " (7B F16 73.83/83.32, 70B Q4_0 25.68/25.88 tok/s) stream weights at"
     " 1.17-1.36 TB/s after the per-layer overhead, 10.2-11.9 GB/s per SM"
     " (108/114 SMs), about half of HBM; GDDR cards stay under it"
     "; MoE: 139 us more per MoE layer at 2 GHz: Mixtral 8x7B Q3_K_M fully"
     " on an RTX 4090, early-2024 build, tg128 83.16 t/s "
     "(TheBloke/Mixtral-8x7B-v0.1-GGUF discussion #9)"
     "; prefill on quantised weights: MMQ at most 350 FLOP per clock per SM"
     " at the boost clock, from two llama-bench pp512 rows of Llama 7B Q4_0"
     " of Jan 2024: RTX 3090 3510.53 t/s (PR #4766) and RTX 3090 Ti 4035.47"
     " (PR #4812), 346 and 355 once the unfused attention these builds ran"
     " (no fused attention before PR #5021) is priced; F16 weights too on"
     " NVIDIA GPUs: XiongjieDai's"
     " Dec 2023 prompt-eval rows of Llama 2 7B F16 on nine GPUs read -31 % to"
     " +64 %, median +10 % (+35 % to +231 % at the full tensor rate)"
     "; KV cache: f32, f16, q8_0, q4_0, q4_1 (-ctk since PR #4309, 7 Dec"
     " 2023; bf16, q5_0, q5_1, iq4_nl came in 2024, PR #6183 and later)",
     1, 11.2e9, 139e-6, 0.0, 0.0, 350.0, 0.0, 0, 1, 0.0, 0, 2.8},
    {"llama.cpp-metal-2023", "llama.cpp (Metal backend, Apple silicon; Nov 2023 builds)", 1.0,
     1.0, 95e-6, 8.0,
     "least squares over the 79 tg128 rows of ggml-org/llama.cpp discussion"
     " #4167 (LLaMA 7B v2 F16 / Q8_0 / Q4_0 on 28 M1-M4 chips, build 8e672ef"
     " and later; docs/models/inference.md, Engine profiles): with the"
     " bandwidth fraction free the fit asks 1.10 (F16) and 1.12 (quantised)"
     " of the achievable bandwidth, which on Apple GPUs is a copy"
     " measurement that a read-only weight stream outruns, and 129 us/layer;"
     " held at 1 (the profile convention's limit), 95 us/layer at 2 GHz"
     " (rms 7.7 %; tokens/s -12 % to +28 %, median -3 %); prefill 1 of the expected matmul rate at"
     " 16 bits (each Apple entry's efficiency.compute is its F16 pp512 rate);"
     " on quantised weights at most 170 FLOP per clock per GPU core at the"
     " boost clock, the median of the 56 Q8_0 and Q4_0 pp512 rows (150 to"
     " 188, of the 256 an Apple GPU core peaks at); MoE: 47 us per MoE layer"
     " assumed (the CUDA profile's)"
     "; KV cache: f16 or f32 (--memory-f32; -ctk came with PR #4309, 7 Dec"
     " 2023, after these builds)", 1, 0.0, 47e-6, 1.0, 0.0, 170.0, 0.0, 0, 1, 0.0, 0, 0.0},
    {"mlx", "MLX LM (mlx-lm, LM Studio's MLX engine; Apple silicon)", 1.0, 1.0, 23e-6, 8.0,
     "least squares over 18 published decode rows of mlx-lm and LM Studio's"
     " MLX engine (mlx-lm inside) on five Apple chips, 4-, 6- and 8-bit MLX"
     " weights (docs/models/inference.md, Engine profiles): M4 Pro 20-core"
     " Qwen2.5 7B / 14B / 32B / 72B 4-bit 53.63 / 26.7 / 12.14 / 5.47 and 32B"
     " 8-bit 6.58, M4 Max 40-core 101.87 / 52.22 / 24.46 / 10.86 and 13.75,"
     " M1 Pro 16-core 7B / 14B / 32B 38.99 / 18.88 / 9.10 (itsmostafa/"
     "inference-speed-tests, 'Write a 500 word story'); M4 Max Qwen3-8B 4-bit"
     " 95.88 (the same repo's mlx_lm runs, 2026-03-30); M3 Max 40-core Llama"
     " 3.3 70B 4-bit 9.351 (ml-explore/mlx-examples #1029, mlx-lm 0.20.4); M4"
     " Max Qwen2.5-72B 6-bit 7.919 (mlx-examples #1281); M3 Pro Qwen2.5-7B"
     " 4-bit 29.21 (lmstudio-ai/mlx-engine PR #83) and Qwen3-4B 4-bit 44.62"
     " (mlx_lm.benchmark -p 2048 -g 128, ml-explore/mlx-lm PR #1569): with the"
     " bandwidth fraction free the fit asks 1.02 of the copy-measured"
     " achievable bandwidth and 30 us/layer; held at 1 (the profile"
     " convention's limit), 23 us/layer at 2 GHz (rms 5.3 %, -12.5 % to"
     " +12.9 %, median 0); eff_float held at 1, which reads the one 16-bit row"
     " (M2 Ultra, Llama 3 70B bf16 4.7 tok/s, mlx-examples PR #1069) at -4 %;"
     " MoE: 58 us more per MoE layer at 2 GHz, least squares over four"
     " gpt-oss rows (MXFP4 experts, the rest 8-bit) of the same repo's mlx_lm"
     " runs: M4 Max 20b 121.02 and 120b 81.34, M5 Max 40-core 137.76 and"
     " 92.95 (rms 3.4 %; the Metal llama.cpp figure, 47, reads them 0 to"
     " +10 %); prefill 1 of the expected matmul rate with no per-core cap:"
     " the rows with a prompt rate ask 0.93 to 1.14 of it (M3 Max 70B 4-bit"
     " at 260 to 1171 prompt tokens 75.9 to 83.8 tok/s, M4 Max Qwen3-8B at"
     " about 21K 557, M3 Pro Qwen3-4B at 2048 615)"
     "; KV cache: the model's dtype, or MLX affine groups (mlx_lm"
     " --kv-bits, --kv-group-size 64)",
     0, 0.0, 58e-6, 1.0, 0.0, 0.0, 0.0, 0, 0, 0.0, 0, 0.0},
};

#define N_ENGINES (sizeof engines / sizeof engines[0])

/* Other spellings and engines that share a profile, each to an engine id:
 * Ollama and LM Studio run llama.cpp (current builds; "llama.cpp-2023" is
 * the Dec 2023 CUDA one, "llama.cpp-metal-2023" the Nov 2023 Metal one);
 * TGI, SGLang and LMDeploy are CUDA-graph servers like vLLM; NIM runs
 * TensorRT-LLM; LM Studio's MLX engine ("mlx-engine") runs mlx-lm.  Compared after normalisation (lower case,
 * letters and digits only), so "llama.cpp", "llama_cpp" and "LlamaCPP" are
 * one name. */
static const struct {
    const char *alias;
    const char *id;
} aliases[] = {
    {"default", "generic"},          {"ggml", "llama.cpp"},
    {"llamacpphip", "llama.cpp-rocm"}, {"llamacppamd", "llama.cpp-rocm"},
    {"llamacppintel", "llama.cpp-sycl"}, {"llamacppapple", "llama.cpp-metal"},
    {"metal", "llama.cpp-metal"},
    {"ollama", "llama.cpp"},         {"lmstudio", "llama.cpp"},
    {"torchcompile", "gpt-fast"},    {"gptfastcompile", "gpt-fast"},
    {"mlcllm", "mlc"},               {"exllama2", "exllamav2"},
    {"exl2", "exllamav2"},           {"exllamav1", "exllama"},
    {"tgi", "vllm"},                 {"textgenerationinference", "vllm"},
    {"sglang", "vllm"},              {"lmdeploy", "vllm"},
    {"turbomind", "vllm"},           {"trtllm", "tensorrt-llm"},
    {"tensorrt", "tensorrt-llm"},    {"trt", "tensorrt-llm"},
    {"nim", "tensorrt-llm"},         {"hf", "hf-transformers"},
    {"transformers", "hf-transformers"}, {"huggingface", "hf-transformers"},
    {"pytorch", "hf-transformers"},  {"mlxlm", "mlx"},
    {"lmstudiomlx", "mlx"},          {"mlxengine", "mlx"},
    {"applemlx", "mlx"},
};

/* Lower-case letters and digits of s into buf (size n). */
static void norm(const char *s, char *buf, size_t n)
{
    size_t j = 0;
    for (; *s != '\0' && j + 1 < n; s++) {
        char c = *s;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            buf[j++] = c;
    }
    buf[j] = '\0';
}

size_t gp_engine_count(void)
{
    return N_ENGINES;
}

const gp_engine *gp_engine_at(size_t i)
{
    return i < N_ENGINES ? &engines[i] : NULL;
}

const gp_engine *gp_engine_default(void)
{
    return &engines[0];
}

double gp_engine_prefill_eff(const gp_engine *e, int narrow)
{
    if (e == NULL)
        return 1.0;
    if (narrow && e->prefill_eff8 > 0.0)
        return e->prefill_eff8;
    return e->prefill_eff > 0.0 ? e->prefill_eff : 1.0;
}

double gp_engine_dequant_scale(const gp_engine *e, const gp_format *f)
{
    double s = f != NULL && f->dequant_scale.v > 0.0 ? f->dequant_scale.v : 1.0;
    if (s > 1.0 && e != NULL && e->dequant_scale_mult > 0.0)
        s *= e->dequant_scale_mult;
    return s;
}

/* The profile an engine runs as on another vendor's GPUs: its build for
 * that vendor (llama.cpp's HIP, SYCL and Metal backends, vLLM's ROCm build;
 * the Dec 2023 llama.cpp on an Apple GPU is the Nov 2023 Metal fit). */
static const struct {
    const char *from, *vendor, *to;
} backends[] = {
    {"llama.cpp", "AMD", "llama.cpp-rocm"},
    {"llama.cpp", "Intel", "llama.cpp-sycl"},
    {"llama.cpp", "Apple", "llama.cpp-metal"},
    {"generic", "Apple", "llama.cpp-metal"},
    {"llama.cpp-2023", "Apple", "llama.cpp-metal-2023"},
    {"vllm", "AMD", "vllm-rocm"},
};

/* The vendors each engine's build runs on (gp_engine_runs_on); an engine
 * not listed runs everywhere (llama.cpp's Vulkan build, MLC's Vulkan/Metal
 * backends, PyTorch eager; llama.cpp and the default profile are swapped to
 * a vendor's build first). */
static const struct {
    const char *id, *vendors[3], *says;
} native[] = {
    {"llama.cpp-2023", {"NVIDIA"}, "NVIDIA"},
    {"gpt-fast", {"NVIDIA", "AMD"}, "NVIDIA and AMD (PyTorch CUDA/ROCm)"},
    {"exllama", {"NVIDIA", "AMD"}, "NVIDIA and AMD"},
    {"exllamav2", {"NVIDIA", "AMD"}, "NVIDIA and AMD"},
    {"vllm", {"NVIDIA", "AMD"}, "NVIDIA and AMD"},
    {"tensorrt-llm", {"NVIDIA"}, "NVIDIA"},
    {"llama.cpp-rocm", {"AMD"}, "AMD"},
    {"llama.cpp-sycl", {"Intel"}, "Intel"},
    {"vllm-rocm", {"AMD"}, "AMD"},
    {"llama.cpp-metal", {"Apple"}, "Apple"},
    {"llama.cpp-metal-2023", {"Apple"}, "Apple"},
    {"mlx", {"Apple"}, "Apple"},
};

int gp_engine_runs_on(const gp_engine *e, const gp_gpu *g, const char **vendors)
{
    size_t i, j;
    if (e == NULL || e->id == NULL || g == NULL || g->vendor == NULL)
        return 1;
    for (i = 0; i < sizeof native / sizeof native[0]; i++) {
        if (strcmp(e->id, native[i].id) != 0)
            continue;
        for (j = 0; j < 3 && native[i].vendors[j] != NULL; j++)
            if (gp__vendor_is(g, native[i].vendors[j]))
                return 1;
        if (vendors != NULL)
            *vendors = native[i].says;
        return 0;
    }
    return 1;
}

int gp_engine_loads(const gp_engine *e, const gp_format *f)
{
    int llama, mlc, mlx;
    if (e == NULL || e->id == NULL || f == NULL)
        return 1;
    llama = strncmp(e->id, "llama.cpp", 9) == 0;
    mlc = strcmp(e->id, "mlc") == 0;
    mlx = strcmp(e->id, "mlx") == 0;
    if (!llama && !mlc && !mlx)
        return 1;
    /* The gpt-oss layout of MXFP4 experts and a BF16 rest is also a GGUF:
     * convert_hf_to_gguf.py keeps the experts' MXFP4 blocks and writes the
     * other tensors at --outtype bf16 (llama-bench's "gpt-oss 20B BF16"). */
    if (llama && f->id != NULL && strcmp(f->id, "mxfp4-moe-bf16") == 0)
        return 1;
    if (f->engine != NULL) /* a GGUF type names llama.cpp; MLC's name mlc, MLX's mlx */
        return llama ? strncmp(f->engine, "llama.cpp", 9) == 0
                     : strcmp(f->engine, mlc ? "mlc" : "mlx") == 0;
    /* MLC compiles its formats from any Hugging Face weights; llama.cpp
     * reads 16/32-bit floats besides its own types; MLX reads them too and
     * quantizes in its microscaling modes as well (mx.quantize mode mxfp4,
     * mxfp8, nvfp4). */
    if (mlx && f->id != NULL &&
        (strcmp(f->id, "mxfp4") == 0 || strcmp(f->id, "mxfp8") == 0 ||
         strcmp(f->id, "nvfp4") == 0))
        return 1;
    return mlc || (f->kind == GP_FMT_FLOAT &&
                   (f->compute == GP_FP16 || f->compute == GP_BF16 || f->compute == GP_FP32));
}

/* The KV-cache types each engine's cache option takes, as gpuplan's format
 * ids (gp_engine_holds_kv), and as the engine names them.  A profile that
 * stands for several engines (vllm: vLLM, SGLang, TGI, LMDeploy; llama.cpp:
 * Ollama, LM Studio) lists what any of them takes: a format none of them
 * keeps is said, never one that some engine behind the profile does.
 * Sources (also in each profile's src):
 *   llama.cpp builds: common/arg.cpp --cache-type-k / -v (f32, f16, bf16,
 *     q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1; q5_0, q5_1 and iq4_nl since PR
 *     #6183, March 2024); the Dec 2023 CUDA builds (llama.cpp-2023) only
 *     f32, f16, q8_0, q4_0, q4_1 (-ctk since PR #4309, 7 Dec 2023), the Nov
 *     2023 Metal ones (llama.cpp-metal-2023) f16 or f32 (--memory-f32);
 *   vllm, vllm-rocm: vLLM --kv-cache-dtype {auto, fp8, fp8_e4m3, fp8_e5m2}
 *     (engine args v0.5.3; vllm.config CacheDType, v0.9), auto being the
 *     model's dtype; SGLang and TGI the same fp8 pair; LMDeploy quant_policy
 *     8 and 4 (online int8 / int4 KV, per head and token, v0.4.0 on);
 *   tensorrt-llm: the model's dtype, FP8 and NVFP4 KV cache (TensorRT-LLM
 *     docs, features/quantization), INT8 KV cache (examples'
 *     convert_checkpoint.py --int8_kv_cache);
 *   mlx: the model's dtype, or --kv-bits with --kv-group-size 64, MLX's
 *     affine groups (mlx-3bit ... mlx-8bit). */
static const struct {
    const char *id; /* engine id; "llama.cpp" is every later llama.cpp build */
    const char *ids[10];
    const char *says;
} kv_caches[] = {
    {"llama.cpp-2023",
     {"fp32", "fp16", "q8_0", "q4_0", "q4_1"},
     "f32, f16, q8_0, q4_0, q4_1 (-ctk, Dec 2023 builds)"},
    {"llama.cpp-metal-2023",
     {"fp32", "fp16"},
     "f32, f16 (Nov 2023 builds: --memory-f32, before -ctk)"},
    {"llama.cpp",
     {"fp32", "fp16", "bf16", "q8_0", "q4_0", "q4_1", "iq4_nl", "q5_0", "q5_1"},
     "f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1 (--cache-type-k/-v)"},
    {"vllm",
     {"fp32", "fp16", "bf16", "fp8-e4m3", "fp8-e5m2", "int8", "int4"},
     "the model's fp16/bf16, fp8-e4m3, fp8-e5m2 (vLLM --kv-cache-dtype fp8_e4m3, "
     "fp8_e5m2; SGLang, TGI alike), int8, int4 (LMDeploy --quant-policy 8, 4)"},
    {"vllm-rocm",
     {"fp32", "fp16", "bf16", "fp8-e4m3", "fp8-e5m2", "int8", "int4"},
     "the model's fp16/bf16, fp8-e4m3, fp8-e5m2 (vLLM --kv-cache-dtype fp8_e4m3, "
     "fp8_e5m2; SGLang, TGI alike), int8, int4 (LMDeploy --quant-policy 8, 4)"},
    {"tensorrt-llm",
     {"fp32", "fp16", "bf16", "fp8-e4m3", "int8", "nvfp4"},
     "the model's fp16/bf16, fp8-e4m3, int8, nvfp4 (KvCacheConfig dtype; "
     "--int8_kv_cache)"},
    {"mlx",
     {"fp32", "fp16", "bf16", "mlx-3bit", "mlx-4bit", "mlx-6bit", "mlx-8bit"},
     "the model's fp16/bf16, mlx-3bit ... mlx-8bit (--kv-bits, --kv-group-size 64)"},
};

/* 1 when kv_caches row i lists format id fid. */
static int kv_row_has(size_t i, const char *fid)
{
    size_t j;
    for (j = 0; j < sizeof kv_caches[i].ids / sizeof kv_caches[i].ids[0] &&
                kv_caches[i].ids[j] != NULL;
         j++)
        if (strcmp(fid, kv_caches[i].ids[j]) == 0)
            return 1;
    return 0;
}

int gp_engine_holds_kv(const gp_engine *e, const gp_format *f, const char **types)
{
    size_t i;
    if (e == NULL || e->id == NULL || f == NULL || f->id == NULL)
        return 1;
    for (i = 0; i < sizeof kv_caches / sizeof kv_caches[0]; i++) {
        const char *id = kv_caches[i].id;
        if (strcmp(id, "llama.cpp") == 0 ? strncmp(e->id, id, 9) != 0 : strcmp(e->id, id) != 0)
            continue;
        if (kv_row_has(i, f->id))
            return 1;
        if (types != NULL)
            *types = kv_caches[i].says;
        return 0;
    }
    return 1;
}

int gp_format_holds_kv(const gp_format *f)
{
    size_t i;
    if (f == NULL || f->engine == NULL || f->id == NULL)
        return 1;
    /* mlx-lm quantizes its KV cache with the weights' affine groups
     * (--kv-bits, --kv-group-size 64). */
    if (strcmp(f->engine, "mlx") == 0)
        return 1;
    /* Another engine's file type: one of llama.cpp's cache types (the
     * kv_caches row of current builds, the widest list). */
    for (i = 0; i < sizeof kv_caches / sizeof kv_caches[0]; i++)
        if (strcmp(kv_caches[i].id, "llama.cpp") == 0 && kv_row_has(i, f->id))
            return 1;
    return 0;
}

const gp_engine *gp_engine_for_gpu(const gp_engine *e, const gp_gpu *g)
{
    size_t i;
    if (e == NULL || g == NULL || g->vendor == NULL)
        return e;
    /* The table's own entries only: a caller's profile keeps its figures
     * (equality only: a caller's struct is no element of the table). */
    for (i = 0; i < N_ENGINES && e != &engines[i]; i++)
        ;
    if (i == N_ENGINES)
        return e;
    for (i = 0; i < sizeof backends / sizeof backends[0]; i++) {
        if (strcmp(e->id, backends[i].from) == 0 && gp__vendor_is(g, backends[i].vendor)) {
            const gp_engine *to = gp_engine_find(backends[i].to);
            return to != NULL ? to : e;
        }
    }
    return e;
}

const gp_engine *gp_engine_find(const char *name)
{
    size_t i;
    char want[64], have[64];
    if (name == NULL)
        return NULL;
    for (i = 0; i < N_ENGINES; i++)
        if (strcasecmp(name, engines[i].id) == 0)
            return &engines[i];
    norm(name, want, sizeof want);
    if (want[0] == '\0')
        return NULL;
    for (i = 0; i < N_ENGINES; i++) {
        norm(engines[i].id, have, sizeof have);
        if (strcmp(want, have) == 0)
            return &engines[i];
    }
    for (i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(want, aliases[i].alias) == 0)
            return gp_engine_find(aliases[i].id);
    return NULL;
}

int gp_engine_get(const char *name, const char *what, const gp_engine **out,
                  gp_err *e)
{
    char known[256];
    size_t i, len = 0;
    const gp_engine *g;
    if (out != NULL)
        *out = NULL;
    if (name == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_engine_get: NULL name");
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_engine_get: NULL out");
    if ((g = gp_engine_find(name)) != NULL) {
        *out = g;
        return GP_OK;
    }
    /* The nearest id or alias (a third of the name's length in edits, 1 to
     * 3), then the whole list with the aliases. */
    if (name != NULL) {
        size_t lim = gp__suggest_limit(name), best = (size_t)-1, d;
        const char *hit = NULL, *via = NULL;
        for (i = 0; i < N_ENGINES; i++)
            if ((d = gp__edit_distance(name, engines[i].id, lim)) <= lim && d < best) {
                best = d;
                hit = engines[i].id;
            }
        for (i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
            if ((d = gp__edit_distance(name, aliases[i].alias, lim)) <= lim && d < best) {
                best = d;
                hit = aliases[i].id;
                via = aliases[i].alias;
            }
        if (hit != NULL)
            return GP_RAISE_AT(e, GP_ENOTFOUND, what, 0, 0,
                               "unknown engine '%s'; did you mean %s%s%s%s? ('gpuplan hw list "
                               "engines' lists them)",
                               name, via ? via : hit, via ? " (the " : "", via ? hit : "",
                               via ? " profile)" : "");
    }
    known[0] = '\0';
    for (i = 0; i < N_ENGINES && len < sizeof known; i++) {
        int n = snprintf(known + len, sizeof known - len, "%s%s", i ? " " : "",
                         engines[i].id);
        if (n < 0)
            break;
        len += (size_t)n;
    }
    return GP_RAISE_AT(e, GP_ENOTFOUND, what, 0, 0,
                       "unknown engine '%s' (known: %s; and what they stand for: sglang, "
                       "lmdeploy, tgi, ollama, nim, trt, ...: 'gpuplan hw list engines')",
                       name ? name : "", known);
}
