package proptest

import (
	"syscall"
	"time"
)

// cpuTime is the process's user and system CPU time (every thread, the
// garbage collector's included): per-op figures from it are steadier than
// wall time on a shared machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
