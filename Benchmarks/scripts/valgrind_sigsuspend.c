// Preloaded into `decoy serve` under valgrind 3.19, which writes to the mask `rt_sigsuspend` is
// given: libdispatch's main thread passes one in read-only memory, and valgrind dies of it.
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8);
}
