package compact

import (
	"reflect"
	"runtime"
	"testing"
	"unsafe"
)

// canonicalInt is a canonical copy the shard tests add: an int on the
// heap, padded beyond 16 bytes. An 8-byte int would come from the tiny
// allocator, which packs two into one block, so a dropped copy next to a
// kept one would stay reachable and its weak pointer would not clear (a
// flaky count of live copies).
func canonicalInt(v int) unsafe.Pointer {
	p := &struct {
		v int
		_ [16]byte
	}{v: v}
	return unsafe.Pointer(p)
}

// sameInt is the equality a lookup of v passes.
func sameInt(v int) func(p unsafe.Pointer, _ int) bool {
	return func(p unsafe.Pointer, _ int) bool { return *(*int)(p) == v }
}

func TestShardFindsExactlyWhatWasAdded(t *testing.T) {
	intType, strType := typeWord(reflect.TypeFor[int]()), typeWord(reflect.TypeFor[string]())
	cases := []struct {
		name   string
		hashOf func(v int) uint64 // the hash each value is added and looked up with
		values int
	}{
		{"distinct hashes", func(v int) uint64 { return uint64(v)*0x9e3779b97f4a7c15 | 1 }, 200},
		{"every value colliding on one hash", func(int) uint64 { return 42 }, 50},
		{"hashes colliding in pairs", func(v int) uint64 { return uint64(v/2)<<32 | 7 }, 100},
		{"hashes sharing a home slot", func(v int) uint64 { return uint64(v) + 1 }, 100},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var s shard
			kept := make([]unsafe.Pointer, tc.values)
			for v := range kept {
				kept[v] = canonicalInt(v)
				s.addLocked(intType, tc.hashOf(v), kept[v], v, nil)
			}
			for v := range kept {
				p, n, ok := s.findLocked(intType, tc.hashOf(v), sameInt(v))
				if !ok || p != kept[v] || n != v {
					t.Fatalf("value %d: found (%p, %d, %v), want its copy %p with length %d", v, p, n, ok, kept[v], v)
				}
				if _, _, ok := s.findLocked(strType, tc.hashOf(v), func(unsafe.Pointer, int) bool { return true }); ok {
					t.Fatalf("value %d found under another type", v)
				}
			}
			if _, _, ok := s.findLocked(intType, tc.hashOf(0), sameInt(-1)); ok {
				t.Error("a value never added was found: equality must decide, not the hash")
			}
			if s.used != tc.values || s.used*maxLoadDen > len(s.slots)*maxLoadNum {
				t.Errorf("%d slots used of %d for %d values", s.used, len(s.slots), tc.values)
			}
			runtime.KeepAlive(kept)
		})
	}
}

func TestShardDropsCollectedCopiesAndShrinks(t *testing.T) {
	intType := typeWord(reflect.TypeFor[int]())
	var s shard
	kept := make([]unsafe.Pointer, 1000)
	for v := range kept {
		kept[v] = canonicalInt(v)
		s.addLocked(intType, uint64(v)<<32|1, kept[v], 0, nil)
	}
	full := len(s.slots)
	clear(kept[10:]) // the copies the shard alone holds (weakly)
	kept = kept[:10]
	runtime.GC()
	runtime.GC()
	s.rebuildLocked(0)
	if s.used != 10 || len(s.slots) >= full/8 {
		t.Errorf("with 10 of 1000 copies alive the shard uses %d of %d slots (had %d)", s.used, len(s.slots), full)
	}
	// Churn: copies added and dropped forever keep the shard bounded by
	// its live copies, with no Sweep: it rebuilds itself as it fills.
	most := 0
	for v := range 20000 {
		s.addLocked(intType, uint64(v)<<32|3, canonicalInt(v), 0, nil)
		if v%100 == 0 {
			runtime.GC()
		}
		most = max(most, len(s.slots))
	}
	if most > 1024 {
		t.Errorf("churning through 20000 short-lived copies (10 live, about 100 more between collections) grew the shard to %d slots", most)
	}
	for v := range kept {
		if _, _, ok := s.findLocked(intType, uint64(v)<<32|1, sameInt(v)); !ok {
			t.Errorf("live copy %d lost by rebuilding", v)
		}
	}
	runtime.KeepAlive(kept)
}
