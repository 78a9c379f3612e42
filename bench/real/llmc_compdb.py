#!/usr/bin/env python3
"""Build compile_commands.json for karpathy/llm.c from `make -n -B` (no compilation).
Run from the llm.c checkout; writes build/compile_commands.json.
Configuration: MULTI_GPU + USE_MPI (NCCL headers in /usr/local/cuda/include,
Open MPI headers in /usr/lib/x86_64-linux-gnu/openmpi/include), BF16, no cuDNN;
plus one cuDNN entry for llmc/cudnn_att.cpp (USE_CUDNN=1 with CUDNN_FRONTEND_PATH)."""
import json, os, shlex, subprocess, sys
root = os.path.abspath('.')
MPI_INC = '/usr/lib/x86_64-linux-gnu/openmpi/include'
NVCC_FLAGS = '--threads=0 -t=0 --use_fast_math -std=c++17 -O3 -DMULTI_GPU -DUSE_MPI'
# cuDNN: the Makefile only looks in $HOME/cudnn-frontend or ./cudnn-frontend: symlink ./cudnn-frontend to a checkout of NVIDIA/cudnn-frontend first.
def make_n(directory, args):
    p = subprocess.run(['make', '-n', '-B'] + args, cwd=directory, capture_output=True, text=True)
    return [l for l in p.stdout.splitlines() if l.strip()]
entries = []
def add(directory, line, srcs):
    argv = shlex.split(line)
    for s in srcs:
        if s in argv and '-MF' not in argv:
            entries.append({'directory': directory, 'arguments': argv, 'file': os.path.join(directory, s)})
# top level
main_targets = ['train_gpt2cu', 'test_gpt2cu', 'train_gpt2fp32cu', 'test_gpt2fp32cu', 'profile_gpt2cu', 'train_gpt2', 'test_gpt2']
for l in make_n(root, main_targets + ['NVCC_FLAGS=' + NVCC_FLAGS, 'GPU_COMPUTE_CAPABILITY=']):
    add(root, l, ['train_gpt2.cu', 'test_gpt2.cu', 'train_gpt2_fp32.cu', 'test_gpt2_fp32.cu', 'profile_gpt2.cu', 'train_gpt2.c', 'test_gpt2.c'])
# cudnn_att.cpp (only built with USE_CUDNN=1)
for l in make_n(root, ['build/cudnn_att.o', 'USE_CUDNN=1',
                       'NVCC_FLAGS=' + NVCC_FLAGS + ' -DENABLE_CUDNN', 'GPU_COMPUTE_CAPABILITY=']):
    add(root, l, ['llmc/cudnn_att.cpp'])
# dev/cuda kernels
d = os.path.join(root, 'dev/cuda')
cus = sorted(f for f in os.listdir(d) if f.endswith('.cu'))
for l in make_n(d, ['all', 'GPU_COMPUTE_CAPABILITY=']):
    add(d, l, cus)
# dev/test: test_dataloader via its Makefile; test_outlier_detector and device_file_io.cu as their header comments say
d = os.path.join(root, 'dev/test')
for l in make_n(d, ['test_dataloader', 'PRECISION=BF16', 'GPU_COMPUTE_CAPABILITY=']):
    add(d, l, ['test_dataloader.c'])
entries.append({'directory': d, 'file': os.path.join(d, 'test_outlier_detector.c'),
                'arguments': shlex.split('gcc -O3 -I../../llmc -o test_outlier_detector test_outlier_detector.c -lm')})
entries.append({'directory': d, 'file': os.path.join(d, 'device_file_io.cu'),
                'arguments': shlex.split('/usr/local/cuda/bin/nvcc -o device_file_io device_file_io.cu')})
# dev/cpu
d = os.path.join(root, 'dev/cpu')
entries.append({'directory': d, 'file': os.path.join(d, 'matmul_forward.c'),
                'arguments': shlex.split('cc -O3 -fopenmp matmul_forward.c -lm -o matmul_forward')})
os.makedirs('build', exist_ok=True)
json.dump(entries, open('build/compile_commands.json', 'w'), indent=1)
print(len(entries), 'entries')
for e in entries: print(os.path.relpath(e['file'], root), ' '.join(e['arguments'][:3]), '...')
