package protodecoding

import (
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD: the calling thread's usage.
const rusageThread = 1

// threadCPU returns the CPU time (user and system) the calling thread has
// used; callers lock their goroutine to the thread. On a shared machine
// it measures the walk's own work where wall time measures the machine's
// load too.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
