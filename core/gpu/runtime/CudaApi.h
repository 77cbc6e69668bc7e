#pragma once
// Types of the CUDA driver API and NVRTC. We take them from the toolkit headers when the build has
// them and otherwise declare the few we use (their ABI is stable); the libraries themselves are
// always dlopen'd, never linked.
#if defined(TILESCOPE_HAVE_CUDA_HEADERS)
#include <cuda.h>
#include <nvrtc.h>
#else
#include <cstddef>
extern "C" {
typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st* CUcontext;
typedef struct CUmod_st* CUmodule;
typedef struct CUfunc_st* CUfunction;
typedef struct CUstream_st* CUstream;
typedef struct CUevent_st* CUevent;
typedef unsigned long long CUdeviceptr;
typedef int CUdevice_attribute;
typedef int nvrtcResult;
typedef struct _nvrtcProgram* nvrtcProgram;
}
#define CUDA_SUCCESS 0
#define NVRTC_SUCCESS 0
#define CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT 16
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR 76
#endif
