package cache

import (
	"errors"
	"testing"
)

func TestDeltaFIFOPopHandsOutOneKeyWithItsDeltas(t *testing.T) {
	f := NewDeltaFIFO(MetaNamespaceKeyFunc, nil)
	if f.Name() != "DeltaFIFO" || f.Transformer() != nil {
		t.Fatalf("Name %q, Transformer set %v", f.Name(), f.Transformer() != nil)
	}
	a1, a2 := testObject("ns", "a", "1"), testObject("ns", "a", "2")
	if err := f.Replace([]any{a1}, "1"); err != nil {
		t.Fatal(err)
	}
	if err := f.Update(a2); err != nil {
		t.Fatal(err)
	}
	process := errors.New("processed")
	var seen Deltas
	var initial bool
	item, err := f.Pop(func(obj any, isInInitialList bool) error {
		seen, initial = obj.(Deltas), isInInitialList
		return process
	})
	if !errors.Is(err, process) {
		t.Fatalf("Pop error %v, want the process function's", err)
	}
	got := item.(Deltas)
	if len(got) != 2 || got[0].Type != Replaced || got[1].Type != Updated || got.Newest().Object != a2 || !initial || len(seen) != 2 {
		t.Fatalf("Pop returned %+v (initial %v)", got, initial)
	}
	if f.IsClosed() || IsDone(doneChecker(f.Done())) {
		t.Fatal("closed before Close")
	}
	f.Close()
	if !f.IsClosed() || !IsDone(doneChecker(f.Done())) {
		t.Fatal("not closed after Close")
	}
	if _, err := f.Pop(func(any, bool) error { return nil }); !errors.Is(err, ErrFIFOClosed) {
		t.Fatalf("Pop after Close: %v", err)
	}
}

type doneChecker <-chan struct{}

func (d doneChecker) Name() string          { return "chan" }
func (d doneChecker) Done() <-chan struct{} { return d }
