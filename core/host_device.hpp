// One macro marks per-contact math that CPU and CUDA code share, so the two
// paths compile the same source (the CPU result is the oracle for the GPU).
#pragma once

#if defined(__CUDACC__)
#define CL_HD __host__ __device__ inline
#else
#define CL_HD inline
#endif
