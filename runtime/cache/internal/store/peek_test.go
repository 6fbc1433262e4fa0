package store

import (
	"strconv"
	"sync"
	"testing"
)

// keyOf keys the tests' objects, strings, by themselves.
func keyOf(obj any) (string, error) { return obj.(string), nil }

// TestPeekByKeyReturnsWhatTheWriterHoldingTheLockStored pins down that the
// hint's read of the cache waits for a writer instead of skipping a held
// lock: a PeekByKey started while a writer holds the lock returns the
// object the writer stored before it let go (never the one before it, or
// none), whichever of its spinning, yielding or blocking took the lock.
func TestPeekByKeyReturnsWhatTheWriterHoldingTheLockStored(t *testing.T) {
	s := New(Config{Key: keyOf})
	const key = "ns/a"
	for round := range 200 {
		before, after := "v"+strconv.Itoa(2*round), "v"+strconv.Itoa(2*round+1)
		if _, _, _, err := s.SwapKeyed(key, before, nil); err != nil {
			t.Fatal(err)
		}
		s.mu.Lock()
		started := make(chan struct{})
		got := make(chan any, 1)
		go func() {
			close(started)
			obj, _ := s.PeekByKey(key)
			got <- obj
		}()
		<-started
		// Written under the lock the reader is waiting for, as SwapKeyed
		// does.
		id, ok := s.objects.lookup(key)
		if !ok {
			t.Fatalf("round %d: %s not stored", round, key)
		}
		s.objects.at(id).obj = after
		s.mu.Unlock()
		if obj := <-got; obj != after {
			t.Fatalf("round %d: PeekByKey = %v, want %v (the object stored by the writer it waited for)", round, obj, after)
		}
	}
}

// BenchmarkPeekByKeyWhileWriting measures the hint's cache read while a
// writer swaps other keys one change per write lock, as an informer
// applying a batch does.
func BenchmarkPeekByKeyWhileWriting(b *testing.B) {
	s := New(Config{Key: keyOf})
	keys := make([]string, 10_000)
	for i := range keys {
		keys[i] = "ns/k" + strconv.Itoa(i)
		if err := s.PutKeyed(keys[i], keys[i]); err != nil {
			b.Fatal(err)
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			k := keys[(i*7)%len(keys)]
			if _, _, _, err := s.SwapKeyed(k, k, nil); err != nil {
				panic(err)
			}
		}
	}()
	i := 0
	for b.Loop() {
		if _, ok := s.PeekByKey(keys[i%len(keys)]); !ok {
			b.Fatal("missing key")
		}
		i += 13
	}
	close(stop)
	wg.Wait()
}
