package tablefile

import (
	"sync"
	"sync/atomic"
)

// DefaultCacheBytes is the block cache's size when none is given.
const DefaultCacheBytes = 256 << 20

const cacheShards = 16

// BlockCache keeps decompressed blocks of every table of a store, up to a
// number of bytes, shared by the threads. Each shard evicts in insertion
// order, giving a block read since it came in a second round (CLOCK). A
// block cached is also in its table's slots, where a read finds it
// without a lock.
type BlockCache struct {
	limit  int64 // bytes per shard
	shards [cacheShards]cacheShard
	Misses atomic.Int64
}

type cacheShard struct {
	mu   sync.Mutex
	m    map[uint64]*cached
	ring []uint64 // keys in insertion order, from head
	head int
	used int64
}

type cached struct {
	b    []byte
	ref  atomic.Bool
	slot *atomic.Pointer[cached] // its table's slot
}

func NewBlockCache(bytes int64) *BlockCache {
	c := &BlockCache{limit: max(bytes/cacheShards, 1<<16)}
	for i := range c.shards {
		c.shards[i].m = map[uint64]*cached{}
	}
	return c
}

func cacheKey(z *Compressed, g int64) uint64 { return z.Id<<34 | uint64(g) }

// get returns block g of z, decompressing it on a miss.
func (c *BlockCache) get(z *Compressed, g int64) ([]byte, error) {
	if e := z.slots[g].Load(); e != nil {
		if !e.ref.Load() {
			e.ref.Store(true)
		}
		return e.b, nil
	}
	key := cacheKey(z, g)
	sh := &c.shards[(key*0x9e3779b97f4a7c15)>>60]
	c.Misses.Add(1)
	b, err := z.Decode(g, nil)
	if err != nil {
		return nil, err
	}
	if z.ReleaseRead {
		z.releaseRead(g)
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if e := sh.m[key]; e != nil {
		return e.b, nil // decoded by another thread meanwhile
	}
	for sh.used+int64(len(b)) > c.limit && sh.head < len(sh.ring) {
		k := sh.ring[sh.head]
		sh.head++
		old := sh.m[k]
		if old.ref.Load() {
			old.ref.Store(false)
			sh.ring = append(sh.ring, k)
		} else {
			delete(sh.m, k)
			old.slot.CompareAndSwap(old, nil)
			sh.used -= int64(len(old.b))
		}
		if sh.head > 1024 && sh.head*2 > len(sh.ring) {
			sh.ring = append(sh.ring[:0], sh.ring[sh.head:]...)
			sh.head = 0
		}
	}
	e := &cached{b: b, slot: &z.slots[g]}
	sh.m[key] = e
	e.slot.Store(e)
	sh.ring = append(sh.ring, key)
	sh.used += int64(len(b))
	return b, nil
}

// releaseEvery is how many bytes of a file's compressed blocks are read
// between two releases of its pages (Compressed.ReleaseRead): a release
// after every block, measured on KQRPvKN's set-up (2026-12-07), made it
// 28 % slower (a system call and the other threads' TLBs flushed each
// time, and every page read faulted in again); once every 64 MiB a
// table's resident pages stay within that, and a release is rare.
var releaseEvery int64 = 64 << 20

// releaseRead counts block g's compressed bytes as read, and lets go of
// z's resident pages once releaseEvery bytes are.
func (z *Compressed) releaseRead(g int64) {
	from, to, _ := z.Index(g)
	if z.readSince.Add(to-from) >= releaseEvery {
		z.readSince.Store(0)
		ReleasePages(z.File)
	}
}

// Drop forgets every block of z (a table closed or rebuilt).
func (c *BlockCache) Drop(z *Compressed) {
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		keep := sh.ring[:0]
		for _, k := range sh.ring[sh.head:] {
			if k>>34 == z.Id {
				e := sh.m[k]
				e.slot.CompareAndSwap(e, nil)
				sh.used -= int64(len(e.b))
				delete(sh.m, k)
				continue
			}
			keep = append(keep, k)
		}
		sh.ring, sh.head = keep, 0
		sh.mu.Unlock()
	}
}
