package workqueue

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func TestFIFOMatchesSliceModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var f fifo[int]
	var model []int
	for i := range 10000 {
		if len(model) > 0 && rng.IntN(3) == 0 {
			got := f.Pop()
			if got != model[0] {
				t.Fatalf("step %d: Pop = %d, want %d", i, got, model[0])
			}
			model = model[1:]
		} else {
			f.Push(i)
			model = append(model, i)
		}
		if f.Len() != len(model) {
			t.Fatalf("step %d: Len = %d, want %d", i, f.Len(), len(model))
		}
	}
}

func TestWaitHeapPopsInReadyOrderWithEarliestWins(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	base := time.Unix(0, 0)
	var h waitHeap[int]
	earliest := map[int]time.Time{}
	for range 5000 {
		item := rng.IntN(500)
		at := base.Add(time.Duration(rng.IntN(1_000_000)))
		h.Insert(item, at)
		if e, ok := earliest[item]; !ok || at.Before(e) {
			earliest[item] = at
		}
	}
	if h.Len() != len(earliest) {
		t.Fatalf("Len = %d, want %d (one entry per item)", h.Len(), len(earliest))
	}
	var got []time.Time
	for h.Len() > 0 {
		e := h.Pop()
		if !e.readyAt.Equal(earliest[e.item]) {
			t.Fatalf("item %d popped with %v, want its earliest %v", e.item, e.readyAt, earliest[e.item])
		}
		got = append(got, e.readyAt)
	}
	if !slices.IsSortedFunc(got, func(a, b time.Time) int { return a.Compare(b) }) {
		t.Fatal("entries did not come out in ready-time order")
	}
}
