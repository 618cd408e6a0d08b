package generate

import (
	"encoding/binary"
	"fmt"
	"os"
	"sync"
)

// A spill keeps sets of positions on disk, by bucket: each record is a
// row and a word of the row's positions. Records are appended to a
// bucket in memory and written out a chunk at a time to one scratch
// file; a bucket is read back in the order it was written. The file is
// unlinked as soon as it is created, so nothing is left behind when a
// build is killed.
type spill struct {
	mu     sync.Mutex
	f      *os.File
	size   int64              // bytes written to f
	buf    map[int][]byte     // per bucket, records not yet written
	chunks map[int][][2]int64 // per bucket, its chunks in f: offset, length
}

// spillRecord is one record: 4 bytes of row, 8 of positions.
const spillRecord = 12

// spillChunk is the most bytes a bucket keeps in memory before they go
// to the file.
const spillChunk = 64 << 10

// newSpill creates a spill's file in dir ("" for the system's scratch
// directory).
func newSpill(dir string) (*spill, error) {
	f, err := os.CreateTemp(dir, ".mateline-spill-*")
	if err != nil {
		return nil, fmt.Errorf("scratch file for a bounded build: %w", err)
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, err
	}
	return &spill{f: f, buf: map[int][]byte{}, chunks: map[int][][2]int64{}}, nil
}

// close lets the file go.
func (s *spill) close() error { return s.f.Close() }

// spillEntry is a record bound for a bucket, as a worker collects them.
type spillEntry struct {
	bucket int
	row    uint32
	mask   uint64
}

// addAll appends the entries to their buckets. Goroutines may add at once.
func (s *spill) addAll(es []spillEntry) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range es {
		b := s.buf[e.bucket]
		b = binary.LittleEndian.AppendUint32(b, e.row)
		b = binary.LittleEndian.AppendUint64(b, e.mask)
		if len(b) >= spillChunk {
			if err := s.writeChunk(e.bucket, b); err != nil {
				return err
			}
			b = b[:0]
		}
		s.buf[e.bucket] = b
	}
	return nil
}

// flushAll writes every bucket's buffered records to the file, so that
// what stays in memory is bounded by the buckets in use at once.
func (s *spill) flushAll() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for bucket, b := range s.buf {
		if len(b) == 0 {
			continue
		}
		if err := s.writeChunk(bucket, b); err != nil {
			return err
		}
		delete(s.buf, bucket)
	}
	return nil
}

// writeChunk writes a bucket's buffered records to the file.
func (s *spill) writeChunk(bucket int, b []byte) error {
	if _, err := s.f.WriteAt(b, s.size); err != nil {
		return fmt.Errorf("scratch file for a bounded build: %w", err)
	}
	s.chunks[bucket] = append(s.chunks[bucket], [2]int64{s.size, int64(len(b))})
	s.size += int64(len(b))
	return nil
}

// each calls f on every record of a bucket, in the order they were
// added. No goroutine may add meanwhile.
func (s *spill) each(bucket int, f func(row uint32, mask uint64)) error {
	var b []byte
	for _, c := range s.chunks[bucket] {
		if int64(cap(b)) < c[1] {
			b = make([]byte, c[1])
		}
		b = b[:c[1]]
		if _, err := s.f.ReadAt(b, c[0]); err != nil {
			return fmt.Errorf("scratch file for a bounded build: %w", err)
		}
		decodeRecords(b, f)
	}
	decodeRecords(s.buf[bucket], f)
	return nil
}

// decodeRecords calls f on each record of b.
func decodeRecords(b []byte, f func(row uint32, mask uint64)) {
	for ; len(b) >= spillRecord; b = b[spillRecord:] {
		f(binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint64(b[4:]))
	}
}
