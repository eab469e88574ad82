#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H
// Linux system calls glibc has no wrapper for (before 2.41), which Swift cannot reach through the
// variadic syscall(2), and glibc's malloc tuning, which its Swift module leaves out.
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/// The kernel's struct sched_attr (include/uapi/linux/sched/types.h), its first version.
struct clinux_sched_attr {
  uint32_t size;
  uint32_t sched_policy;
  uint64_t sched_flags;
  int32_t sched_nice;
  uint32_t sched_priority;
  uint64_t sched_runtime;
  uint64_t sched_deadline;
  uint64_t sched_period;
};

/// Keeps malloc to one arena (mallopt M_ARENA_MAX): every further arena reserves 64 MiB of address
/// space. Returns 1 on success, 0 otherwise.
static inline int clinux_one_malloc_arena(void) { return mallopt(M_ARENA_MAX, 1); }

/// The calling thread's id (gettid(2), which glibc declares only under _GNU_SOURCE).
static inline pid_t clinux_gettid(void) { return (pid_t)syscall(SYS_gettid); }

/// Reads thread `tid`'s scheduling attributes (0: the calling thread) into `attr`; 0, or errno.
static inline int clinux_sched_getattr(pid_t tid, struct clinux_sched_attr *attr) {
  memset(attr, 0, sizeof *attr);
  return syscall(SYS_sched_getattr, tid, attr, sizeof *attr, 0) == 0 ? 0 : errno;
}

/// Asks the kernel to give thread `tid` (0: the calling thread) slices of `slice_ns`, keeping its
/// policy, nice value and reset-on-fork flag: `sched_runtime` under a fair policy (SCHED_OTHER,
/// SCHED_BATCH, SCHED_IDLE), which Linux 6.12 and later read as the thread's slice (from 0.1 to
/// 100 ms) and older kernels ignore. Returns 0, or errno (EPERM: the thread has a real-time
/// policy, left as it is).
static inline int clinux_request_slice(pid_t tid, uint64_t slice_ns) {
  struct clinux_sched_attr attr;
  int failure = clinux_sched_getattr(tid, &attr);
  if (failure != 0) return failure;
  if (attr.sched_policy != 0 && attr.sched_policy != 3 && attr.sched_policy != 5) return EPERM;
  attr.size = sizeof attr;
  attr.sched_flags &= 0x01;  // SCHED_FLAG_RESET_ON_FORK, as it was
  attr.sched_priority = 0;
  attr.sched_runtime = slice_ns;
  attr.sched_deadline = 0;
  attr.sched_period = 0;
  return syscall(SYS_sched_setattr, tid, &attr, 0) == 0 ? 0 : errno;
}
#endif
