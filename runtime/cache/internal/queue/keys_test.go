package queue

import (
	"reflect"
	"slices"
	"strconv"
	"testing"
)

// value is the test's per-key value: the strings pushed under a key.
type value struct{ items []string }

func newTestKeys() *Keys[value] {
	return NewKeys(nil, func(v *value, keep bool) {
		clear(v.items)
		v.items = v.items[:0]
		if !keep {
			v.items = nil
		}
	})
}

// push queues key (unless queued) and appends item to its value.
func push(k *Keys[value], key, item string) {
	e, ok := k.Queued(key)
	if !ok {
		e = k.Push(key)
	}
	e.Value.items = append(e.Value.items, item)
}

func keysOf(entries []*Entry[value]) []string {
	var keys []string
	for _, e := range entries {
		keys = append(keys, e.Key())
	}
	return keys
}

func TestKeysPopsKeysOnceEachInTheOrderFirstQueued(t *testing.T) {
	k := newTestKeys()
	push(k, "b", "b1")
	push(k, "a", "a1")
	push(k, "b", "b2")
	if k.Len() != 2 {
		t.Fatalf("Len = %d, want 2", k.Len())
	}
	batch := k.Pop(10)
	if got := keysOf(batch); !slices.Equal(got, []string{"b", "a"}) {
		t.Fatalf("popped %v, want [b a]", got)
	}
	if got := batch[0].Value.items; !slices.Equal(got, []string{"b1", "b2"}) {
		t.Fatalf("b holds %v, want [b1 b2]", got)
	}
	if k.Len() != 0 {
		t.Fatalf("Len = %d after popping all, want 0", k.Len())
	}
}

func TestKeysKnowsAPoppedKeyUntilReleased(t *testing.T) {
	tests := []struct {
		name        string
		requeue     bool
		wantPopped  bool
		wantItems   []string
		wantRelease bool // still known after Release
	}{
		{name: "popped, not queued again", wantPopped: true, wantItems: []string{"a1"}},
		{name: "queued again while popped", requeue: true, wantItems: []string{"a2"}, wantRelease: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := newTestKeys()
			push(k, "a", "a1")
			k.Pop(1)
			if _, ok := k.Queued("a"); ok {
				t.Fatal("a popped key is still queued")
			}
			if tt.requeue {
				push(k, "a", "a2")
			}
			e, popped, ok := k.Known("a")
			if !ok || popped != tt.wantPopped || !slices.Equal(e.Value.items, tt.wantItems) {
				t.Fatalf("Known = %v %v %v, want %v %v", e.Value.items, popped, ok, tt.wantItems, tt.wantPopped)
			}
			k.Release()
			if _, _, ok := k.Known("a"); ok != tt.wantRelease {
				t.Fatalf("after Release: known = %v, want %v", ok, tt.wantRelease)
			}
		})
	}
}

func TestKeysRecycledEntriesCarryNothingOfTheirPreviousKey(t *testing.T) {
	k := newTestKeys()
	push(k, "a", "a1")
	push(k, "a", "a2")
	k.Pop(1)
	k.Release()
	push(k, "b", "b1")
	e, ok := k.Queued("b")
	if !ok || !slices.Equal(e.Value.items, []string{"b1"}) {
		t.Fatalf("b holds %v (queued %v), want [b1]", e.Value.items, ok)
	}
	if _, _, ok := k.Known("a"); ok {
		t.Fatal("a released key is still known")
	}
}

func TestKeysPositionAndLastFollowTheQueue(t *testing.T) {
	k := newTestKeys()
	for _, key := range []string{"a", "b", "c"} {
		push(k, key, key)
	}
	last := k.Last()
	if last.Key() != "c" || k.Position(last) != 3 {
		t.Fatalf("Last = %s at %d, want c at 3", last.Key(), k.Position(last))
	}
	k.Pop(1)
	if k.Position(last) != 2 {
		t.Fatalf("Position of c after a pop = %d, want 2", k.Position(last))
	}
	a, _, _ := k.Known("a")
	if k.Position(a) != 0 {
		t.Fatalf("Position of popped a = %d, want 0", k.Position(a))
	}
	if got := keysOf(k.Entries()); !slices.Equal(got, []string{"b", "c"}) {
		t.Fatalf("Entries = %v, want [b c]", got)
	}
}

func TestKeysReleasesItsMapAndQueueWhenALargeQueueDrains(t *testing.T) {
	tests := []struct {
		name       string
		keys       int
		wantShrunk bool
	}{
		{name: "large list", keys: ShrinkThreshold + 1, wantShrunk: true},
		{name: "small list", keys: 100, wantShrunk: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := newTestKeys()
			k.Reserve(tt.keys)
			for i := range tt.keys {
				push(k, "o"+strconv.Itoa(i), "1")
			}
			itemsBefore := reflect.ValueOf(k.items).UnsafePointer()
			// Pop all but one key: the queue is not empty, nothing shrinks.
			k.Pop(tt.keys - 1)
			k.Release()
			if k.itemsHigh != tt.keys || reflect.ValueOf(k.items).UnsafePointer() != itemsBefore {
				t.Fatalf("map remade while %d keys are still queued", k.Len())
			}
			k.Pop(1)
			k.Release()
			shrunk := reflect.ValueOf(k.items).UnsafePointer() != itemsBefore
			if shrunk != tt.wantShrunk {
				t.Fatalf("map remade = %v after draining %d keys, want %v", shrunk, tt.keys, tt.wantShrunk)
			}
			if tt.wantShrunk && (cap(k.queue) != 0 || k.itemsHigh != 0) {
				t.Fatalf("after draining: queue capacity %d, high-water mark %d, want 0 and 0", cap(k.queue), k.itemsHigh)
			}
			// The queue keeps working after a shrink.
			push(k, "after", "2")
			if got := keysOf(k.Pop(10)); !slices.Equal(got, []string{"after"}) {
				t.Fatalf("popped %v after the drain, want [after]", got)
			}
		})
	}
}

// TestKeysMapStaysProportionalToQueuedKeysUnderASteadyBacklog pins that
// the key map does not grow without bound while the queue never drains:
// with 5,000 keys always queued, 2,000 rounds of 512 new keys in and 512
// keys out keep it within a small multiple of the queued keys.
func TestKeysMapStaysProportionalToQueuedKeysUnderASteadyBacklog(t *testing.T) {
	const backlog, round, rounds = 5000, 512, 2000
	k := newTestKeys()
	next := 0
	add := func(n int) {
		for range n {
			push(k, "o"+strconv.Itoa(next), "1")
			next++
		}
	}
	add(backlog)
	maxEntries := 0
	for range rounds {
		add(round)
		if n := len(k.Pop(round)); n != round {
			t.Fatalf("popped %d keys, want %d", n, round)
		}
		k.Release()
		maxEntries = max(maxEntries, len(k.items))
	}
	if k.Len() != backlog {
		t.Fatalf("Len = %d, want %d", k.Len(), backlog)
	}
	if limit := 3 * (backlog + round); maxEntries > limit {
		t.Fatalf("key map peaked at %d entries for %d queued keys, want at most %d", maxEntries, backlog+round, limit)
	}
	// Every queued key is still found, and popped keys are not.
	for i := next - backlog; i < next; i++ {
		if _, ok := k.Queued("o" + strconv.Itoa(i)); !ok {
			t.Fatalf("queued key o%d lost", i)
		}
	}
	if _, _, ok := k.Known("o0"); ok {
		t.Fatal("popped key o0 still known")
	}
}
