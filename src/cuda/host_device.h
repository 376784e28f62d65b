// GSORT_HD marks small functions that host and device code both call (key
// normalisation, merge path). Without nvcc it is plain `inline`, so such
// headers compile in host-only code and CPU-only builds.
#pragma once

#if defined(__CUDACC__)
#define GSORT_HD __host__ __device__ __forceinline__
#else
#define GSORT_HD inline
#endif
