// c10/util/numa.h - optional NUMA placement of CPU allocations.
// Mirrors PyTorch's c10/util/numa.h. Guide: docs/source/internals/memory.rst.
//
// Built with USE_NUMA=1 (and libnuma present), a new allocation's pages are moved to the
// NUMA node of the allocating thread. Otherwise every function here is a cheap no-op.
#pragma once

#include <c10/macros/Macros.h>

#include <cstddef>

namespace c10 {

C10_API bool IsNUMAEnabled();
C10_API void NUMABind(int numa_node_id);
C10_API int GetNUMANode(const void* ptr);
C10_API int GetNumNUMANodes();
// Move [ptr, ptr + size) to numa_node_id; a no-op when NUMA is off or numa_node_id < 0.
C10_API void NUMAMove(void* ptr, size_t size, int numa_node_id);
// The node of the calling thread's CPU, or -1 when NUMA is off.
C10_API int GetCurrentNUMANode();

}  // namespace c10
