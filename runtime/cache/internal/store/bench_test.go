package store

import (
	"strconv"
	"testing"
)

// The benchmarks here drive the store's users of probe.Table (the object table and the id sets) directly, below
// the locks and key functions, so that a change to the table shows in
// nanoseconds rather than in the noise of a whole store or informer.

const probeBenchKeys = 100_000

func probeBenchKeyList() []string {
	keys := make([]string, probeBenchKeys)
	for i := range keys {
		keys[i] = "namespace-" + strconv.Itoa(i%100) + "/configmap-" + strconv.Itoa(i)
	}
	return keys
}

// BenchmarkObjectTableLookup measures a hit in a table of 100k objects.
func BenchmarkObjectTableLookup(b *testing.B) {
	keys := probeBenchKeyList()
	tab := newObjectTable(0)
	for i, k := range keys {
		tab.insert(k, i)
	}
	i := 0
	for b.Loop() {
		if _, ok := tab.lookup(keys[i%len(keys)]); !ok {
			b.Fatal("missing key")
		}
		i += 7
	}
}

// BenchmarkObjectTableLookupMiss measures a miss in a table of 100k objects.
func BenchmarkObjectTableLookupMiss(b *testing.B) {
	keys := probeBenchKeyList()
	tab := newObjectTable(0)
	for i, k := range keys[:len(keys)/2] {
		tab.insert(k, i)
	}
	miss := keys[len(keys)/2:]
	i := 0
	for b.Loop() {
		if _, ok := tab.lookup(miss[i%len(miss)]); ok {
			b.Fatal("unexpected key")
		}
		i += 7
	}
}

// BenchmarkObjectTableInsertRemove measures removing an object from a
// table of 100k and inserting it again.
func BenchmarkObjectTableInsertRemove(b *testing.B) {
	keys := probeBenchKeyList()
	tab := newObjectTable(0)
	ids := make([]uint32, len(keys))
	for i, k := range keys {
		ids[i] = tab.insert(k, i)
	}
	i := 0
	for b.Loop() {
		k := i % len(keys)
		tab.remove(ids[k])
		ids[k] = tab.insert(keys[k], k)
		i += 7
	}
}

// BenchmarkIDSetChurn measures removing and adding back a member of a set
// of 1000 ids.
func BenchmarkIDSetChurn(b *testing.B) {
	var s idSet
	for i := range uint32(1000) {
		s.add(i * 3)
	}
	i := uint32(0)
	for b.Loop() {
		id := (i % 1000) * 3
		s.remove(id)
		if s.has(id) {
			b.Fatal("removed id present")
		}
		s.add(id)
		i += 7
	}
}

// BenchmarkIDSetAll measures visiting the members of a set of 1000 ids.
func BenchmarkIDSetAll(b *testing.B) {
	var s idSet
	for i := range uint32(1000) {
		s.add(i * 3)
	}
	for b.Loop() {
		sum := uint32(0)
		s.all(func(id uint32) bool { sum += id; return true })
		if sum == 0 {
			b.Fatal("no members")
		}
	}
}
