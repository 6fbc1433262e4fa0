package cache

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// popQueue pops one item of q and returns it with its isInInitialList.
func popQueue(t *testing.T, q Queue) (any, bool) {
	t.Helper()
	var initial bool
	item, err := q.Pop(func(_ any, isInInitialList bool) error {
		initial = isInInitialList
		return nil
	})
	if err != nil {
		t.Fatalf("Pop: %v", err)
	}
	return item, initial
}

// Upstream's TestFIFO_detectLineJumpers and TestFIFO_addUpdate: keys pop in
// the order first queued, each once with its latest object; a key updated
// after it popped queues again at the end; a deleted key is skipped.
func TestFIFOPopsEachKeyOnceInFirstQueuedOrderWithItsLatestObject(t *testing.T) {
	f := NewFIFO(pairKey)
	for _, p := range []pair{{"foo", "10"}, {"bar", "1"}, {"foo", "11"}, {"foo", "13"}, {"zab", "30"}, {"gone", "0"}} {
		mustSucceed(t, f.Add(p))
	}
	mustSucceed(t, f.Delete(pair{"gone", ""}))
	var got []pair
	item, _ := popQueue(t, f)
	got = append(got, item.(pair))
	mustSucceed(t, f.Update(pair{"foo", "14"})) // foo does not jump back in line
	for range 3 {
		item, _ := popQueue(t, f)
		got = append(got, item.(pair))
	}
	want := []pair{{"foo", "13"}, {"bar", "1"}, {"zab", "30"}, {"foo", "14"}}
	if !slices.Equal(got, want) {
		t.Errorf("popped %v, want %v", got, want)
	}
}

// Upstream's TestFIFO_HasSynced: synced after any write other than a first
// Replace, or once the first Replace's keys have all been popped; and
// isInInitialList is true exactly for them.
func TestFIFOHasSyncedAfterTheFirstReplaceIsPopped(t *testing.T) {
	two := []any{pair{"a", "1"}, pair{"b", "2"}}
	pop := func(f *FIFO) { _, _ = f.Pop(func(any, bool) error { return nil }) }
	tests := []struct {
		name    string
		actions []func(f *FIFO)
		synced  bool
	}{
		{"nothing", nil, false},
		{"add first", []func(*FIFO){func(f *FIFO) { _ = f.Add(pair{"a", "1"}) }}, true},
		{"delete first", []func(*FIFO){func(f *FIFO) { _ = f.Delete(pair{"a", "1"}) }}, true},
		{"empty replace", []func(*FIFO){func(f *FIFO) { _ = f.Replace(nil, "0") }}, true},
		{"replace", []func(*FIFO){func(f *FIFO) { _ = f.Replace(two, "0") }}, false},
		{"replace, one pop", []func(*FIFO){func(f *FIFO) { _ = f.Replace(two, "0") }, pop}, false},
		{"replace, two pops", []func(*FIFO){func(f *FIFO) { _ = f.Replace(two, "0") }, pop, pop}, true},
		{"add, then replace", []func(*FIFO){func(f *FIFO) { _ = f.Add(pair{"c", "1"}) }, func(f *FIFO) { _ = f.Replace(two, "0") }}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := NewFIFO(pairKey)
			for _, action := range tt.actions {
				action(f)
			}
			if got := f.HasSynced(); got != tt.synced {
				t.Errorf("HasSynced = %v, want %v", got, tt.synced)
			}
			if got := IsDone(f.HasSyncedChecker()); got != tt.synced {
				t.Errorf("HasSyncedChecker done = %v, want %v", got, tt.synced)
			}
		})
	}
}

func TestFIFOInitialListFlagAndReplace(t *testing.T) {
	f := NewFIFO(pairKey)
	mustSucceed(t, f.Replace([]any{pair{"a", "1"}, pair{"b", "1"}}, "1"))
	mustSucceed(t, f.Replace([]any{pair{"b", "2"}, pair{"c", "2"}}, "2")) // drops a, queues b and c
	seen := map[string]bool{}
	for range 2 {
		item, initial := popQueue(t, f)
		seen[item.(pair).id+"@"+item.(pair).val] = initial
	}
	if want := map[string]bool{"b@2": true, "c@2": true}; fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Errorf("popped (isInInitialList) %v, want %v", seen, want)
	}
	mustSucceed(t, f.Add(pair{"d", "1"}))
	if _, initial := popQueue(t, f); initial {
		t.Error("an add after the initial list popped with isInInitialList")
	}
	if f.Name() != "FIFO" || f.Resync() != nil {
		t.Errorf("Name = %q", f.Name())
	}
}

func TestFIFOReportsKeyErrorsAndProcessErrors(t *testing.T) {
	f := NewFIFO(pairKey)
	for name, err := range map[string]error{"Add": f.Add(42), "Update": f.Update(42), "Delete": f.Delete(42), "Replace": f.Replace([]any{42}, "1")} {
		var ke KeyError
		if !errors.As(err, &ke) || err.Error() != "couldn't create key for object 42: not a pair" {
			t.Errorf("%s: err = %v, want a KeyError", name, err)
		}
	}
	boom := errors.New("boom")
	mustSucceed(t, f.Add(pair{"a", "1"}))
	item, err := f.Pop(func(any, bool) error { return boom })
	if item != (pair{"a", "1"}) || !errors.Is(err, boom) {
		t.Errorf("Pop = %v, %v; want the item and process's error", item, err)
	}
}

// Upstream's TestFIFO_PopShouldUnblockWhenClosed: Close wakes every
// blocked Pop with ErrFIFOClosed.
func TestFIFOCloseUnblocksPop(t *testing.T) {
	f := NewFIFO(pairKey)
	const jobs = 10
	errs := make(chan error, jobs)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := f.Pop(func(any, bool) error { return nil })
			errs <- err
		}()
	}
	f.Close()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Pop did not return after Close")
	}
	close(errs)
	for err := range errs {
		if !errors.Is(err, ErrFIFOClosed) {
			t.Errorf("Pop after Close: %v, want ErrFIFOClosed", err)
		}
	}
	if !f.IsClosed() {
		t.Error("IsClosed is false after Close")
	}
}

// Upstream's TestFIFO_basic: concurrent producers, one consumer; every
// key is popped, with its latest object.
func TestFIFOConcurrentProducersLoseNoKey(t *testing.T) {
	f := NewFIFO(pairKey)
	const producers, per = 4, 200
	var wg sync.WaitGroup
	for p := range producers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range per {
				_ = f.Add(pair{fmt.Sprintf("%d-%d", p, i), "v"})
			}
		}()
	}
	got := map[string]bool{}
	for len(got) < producers*per {
		item, _ := popQueue(t, f)
		got[item.(pair).id] = true
	}
	wg.Wait()
}
