package solver

import "syscall"

// totalMemoryMiB returns the machine's memory in MiB, or 0 when unknown.
func totalMemoryMiB() int {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return 0
	}
	return int(uint64(si.Totalram) * uint64(si.Unit) >> 20)
}
