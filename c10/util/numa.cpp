// c10/util/numa.cpp - NUMA placement through libnuma, or no-ops without it.
// Mirrors PyTorch's c10/util/numa.cpp. Guide: docs/source/internals/memory.rst.
#include <c10/util/Exception.h>
#include <c10/util/numa.h>

#if defined(C10_USE_NUMA)
#include <numa.h>
#include <numaif.h>
#include <unistd.h>
#endif

namespace c10 {

#if defined(C10_USE_NUMA)

bool IsNUMAEnabled() {
  return numa_available() >= 0;
}

void NUMABind(int numa_node_id) {
  if (numa_node_id < 0 || !IsNUMAEnabled()) {
    return;
  }
  TORCH_CHECK(numa_node_id <= numa_max_node(), "NUMA node id ", numa_node_id, " is unavailable");
  auto* bm = numa_allocate_nodemask();
  numa_bitmask_setbit(bm, numa_node_id);
  numa_bind(bm);
  numa_bitmask_free(bm);
}

int GetNUMANode(const void* ptr) {
  if (!IsNUMAEnabled()) {
    return -1;
  }
  int numa_node = -1;
  TORCH_CHECK(get_mempolicy(&numa_node, nullptr, 0, const_cast<void*>(ptr), MPOL_F_NODE | MPOL_F_ADDR) == 0,
              "Unable to get memory policy, errno:", errno);
  return numa_node;
}

int GetNumNUMANodes() {
  return IsNUMAEnabled() ? numa_num_configured_nodes() : -1;
}

void NUMAMove(void* ptr, size_t size, int numa_node_id) {
  if (numa_node_id < 0 || !IsNUMAEnabled()) {
    return;
  }
  // mbind works on whole pages: round the start down to a page boundary.
  const size_t page_size = static_cast<size_t>(getpagesize());
  auto offset = reinterpret_cast<uintptr_t>(ptr) & (page_size - 1);
  unsigned long mask = 1UL << numa_node_id;
  mbind(static_cast<char*>(ptr) - offset, size + offset, MPOL_BIND, &mask, sizeof(mask) * 8, MPOL_MF_MOVE | MPOL_MF_STRICT);
}

int GetCurrentNUMANode() {
  return IsNUMAEnabled() ? numa_node_of_cpu(sched_getcpu()) : -1;
}

#else  // !C10_USE_NUMA

bool IsNUMAEnabled() {
  return false;
}
void NUMABind(int /*numa_node_id*/) {}
int GetNUMANode(const void* /*ptr*/) {
  return -1;
}
int GetNumNUMANodes() {
  return -1;
}
void NUMAMove(void* /*ptr*/, size_t /*size*/, int /*numa_node_id*/) {}
int GetCurrentNUMANode() {
  return -1;
}

#endif

}  // namespace c10
