//go:build fathom

// Package fathomref calls Fathom, the C reference prober (Debian's
// libfathom-dev), for benchmarks and cross-checks. It is built only with
// the "fathom" build tag; mateline itself never uses it.
package fathomref

// #cgo LDFLAGS: -lfathom
// #include <stdbool.h>
// #include <stdint.h>
// #include <stdlib.h>
// #include <tbprobe.h>
// static unsigned probe_wdl(uint64_t w, uint64_t b, uint64_t k, uint64_t q, uint64_t r, uint64_t bi,
//     uint64_t n, uint64_t p, unsigned ep, int turn) {
//   return tb_probe_wdl(w, b, k, q, r, bi, n, p, 0, 0, ep, turn != 0);
// }
import "C"

import "unsafe"

// Init loads the tables in path; it reports whether any was found.
func Init(path string) bool {
	cs := C.CString(path)
	defer C.free(unsafe.Pointer(cs))
	return bool(C.tb_init(cs)) && C.TB_LARGEST > 0
}

// ProbeWDL returns Fathom's WDL (0 loss .. 4 win), or -1 on failure.
func ProbeWDL(white, black, kings, queens, rooks, bishops, knights, pawns uint64, ep uint, whiteToMove bool) int {
	turn := C.int(0)
	if whiteToMove {
		turn = 1
	}
	v := C.probe_wdl(C.uint64_t(white), C.uint64_t(black), C.uint64_t(kings), C.uint64_t(queens), C.uint64_t(rooks),
		C.uint64_t(bishops), C.uint64_t(knights), C.uint64_t(pawns), C.unsigned(ep), turn)
	if v == 0xFFFFFFFF {
		return -1
	}
	return int(v)
}
