package record

import (
	"hash/fnv"
	"strings"
	"unicode/utf8"
)

// IDHash is the stable 64-bit hash of a puzzle id (FNV-1a), used for
// shards and for the set of ids already done. Ids are hashed as the output
// formats write them back: each byte that is not valid UTF-8 counts as
// U+FFFD, as JSON writes it, so an id such as "caf\xe9" is the same id
// after a round trip through any writer.
func IDHash(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(canonicalID(id)))
	return h.Sum64()
}

// canonicalID replaces each byte of id that is not valid UTF-8 by U+FFFD.
func canonicalID(id string) string {
	if utf8.ValidString(id) {
		return id
	}
	var b strings.Builder
	for i := 0; i < len(id); {
		r, size := utf8.DecodeRuneInString(id[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(id[i : i+size])
		}
		i += size
	}
	return b.String()
}
