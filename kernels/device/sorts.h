// gsort's device-wide GPU sorts (kernels/device/): the public host API.
//
// Plain C++: no CUDA headers. Device pointers are plain pointers; a stream is
// a cudaStream_t (CUstream_st*; nullptr is the legacy default stream).
// Every call only enqueues work on `stream` (it may enqueue several kernels
// and device-to-device copies) and returns; nothing is synchronised. A
// failed CUDA call throws gsort::CudaError (src/cuda/check.h: the call,
// file:line, the error's name and text), or DeviceOutOfMemory when memory
// ran out; a temp buffer that is too small, or an n out of range, throws
// std::invalid_argument.
//
// Scratch memory follows "ask, then run": call the *_temp_bytes function
// with the same sizes, allocate at least that much device memory (any
// alignment cudaMalloc gives), pass it as temp/temp_bytes. A null temp with
// temp_bytes == 0 is fine where the size query returned 0.
//
// All sorts are stable: equal keys keep their input order, so a value equal
// to the input index lets a caller sort wider keys in several passes (least
// significant word first). Keys compare as unsigned integers; callers
// normalise signed and floating-point keys first.
#pragma once

#include <cstddef>
#include <cstdint>

struct CUstream_st;  // cudaStream_t is CUstream_st*

namespace gsort::kernels {

// ---- Exclusive prefix sum (work-efficient Blelloch scan) -------------------
// out[i] = in[0] + ... + in[i-1] (wrapping modulo 2^32 / 2^64); out[0] = 0.
// in == out is allowed.
size_t exclusive_scan_temp_bytes(uint64_t n, size_t elem_bytes);  // elem_bytes 4 or 8
void exclusive_scan_u32(const uint32_t* in, uint32_t* out, uint64_t n, void* temp,
                            size_t temp_bytes, CUstream_st* stream);
void exclusive_scan_u64(const uint64_t* in, uint64_t* out, uint64_t n, void* temp,
                            size_t temp_bytes, CUstream_st* stream);

// ---- LSD radix sort of (key, value) pairs -----------------------------------
// Sorts keys[0, n) by bits [begin_bit, end_bit) of each key (bits outside the
// window are ignored: keys equal inside it keep their order), carrying the
// values along. In place from the caller's view: results land back in
// keys_in_out / values_in_out. key_bits is the width of the key type (32 or
// 64). 0 <= begin_bit <= end_bit <= key_bits.
size_t radix_sort_pairs_temp_bytes(uint64_t n, int key_bits);
void radix_sort_pairs(uint64_t* keys_in_out, uint32_t* values_in_out, uint64_t n,
                          int begin_bit, int end_bit, void* temp, size_t temp_bytes,
                          CUstream_st* stream);
void radix_sort_pairs(uint32_t* keys_in_out, uint32_t* values_in_out, uint64_t n,
                          int begin_bit, int end_bit, void* temp, size_t temp_bytes,
                          CUstream_st* stream);

// ---- Merge sort of (u64 key, u32 value) pairs -------------------------------
// Block sort in shared memory (ranks by binary search in the other half),
// then merge passes partitioned by merge path. Stable. In place.
size_t merge_sort_pairs_temp_bytes(uint64_t n);
void merge_sort_pairs(uint64_t* keys_in_out, uint32_t* values_in_out, uint64_t n, void* temp,
                          size_t temp_bytes, CUstream_st* stream);

// ---- Rank (counting) sort for tiny arrays -----------------------------------
// Each element counts the keys smaller than its own (ties broken by index)
// and is written to that rank. O(n^2) work: meant for n up to a few
// thousand. Stable. In place. Needs no temp for n <= rank_sort_block_max().
uint64_t rank_sort_block_max();
size_t rank_sort_pairs_temp_bytes(uint64_t n);
void rank_sort_pairs(uint64_t* keys_in_out, uint32_t* values_in_out, uint64_t n, void* temp,
                         size_t temp_bytes, CUstream_st* stream);

}  // namespace gsort::kernels
