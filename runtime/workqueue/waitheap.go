package workqueue

import "time"

// waitEntry is an item waiting in a waitHeap until readyAt.
type waitEntry[T comparable] struct {
	item    T
	readyAt time.Time
	index   int // position in waitHeap.entries
}

// waitHeap is a binary min-heap of waiting items ordered by readyAt, holding
// each item at most once. It is not safe for concurrent use; Queue guards it
// with its mutex.
type waitHeap[T comparable] struct {
	entries []*waitEntry[T]
	byItem  map[T]*waitEntry[T]
}

// Len returns the number of waiting items.
func (h *waitHeap[T]) Len() int { return len(h.entries) }

// Peek returns the entry with the earliest readyAt. The heap must not be empty.
func (h *waitHeap[T]) Peek() *waitEntry[T] { return h.entries[0] }

// Insert makes item wait until readyAt. If item is already waiting, the
// earlier of the two ready times wins.
func (h *waitHeap[T]) Insert(item T, readyAt time.Time) {
	if e, ok := h.byItem[item]; ok {
		if readyAt.Before(e.readyAt) {
			e.readyAt = readyAt
			h.up(e.index)
		}
		return
	}
	if h.byItem == nil {
		h.byItem = map[T]*waitEntry[T]{}
	}
	e := &waitEntry[T]{item: item, readyAt: readyAt, index: len(h.entries)}
	h.entries = append(h.entries, e)
	h.byItem[item] = e
	h.up(e.index)
}

// Pop removes and returns the entry with the earliest readyAt. The heap must
// not be empty.
func (h *waitHeap[T]) Pop() *waitEntry[T] {
	top := h.entries[0]
	last := len(h.entries) - 1
	h.swap(0, last)
	h.entries[last] = nil
	h.entries = h.entries[:last]
	if last > 0 {
		h.down(0)
	}
	delete(h.byItem, top.item)
	top.index = -1
	return top
}

// Reset drops every waiting item.
func (h *waitHeap[T]) Reset() {
	h.entries = nil
	h.byItem = nil
}

func (h *waitHeap[T]) less(i, j int) bool {
	return h.entries[i].readyAt.Before(h.entries[j].readyAt)
}

func (h *waitHeap[T]) swap(i, j int) {
	h.entries[i], h.entries[j] = h.entries[j], h.entries[i]
	h.entries[i].index = i
	h.entries[j].index = j
}

func (h *waitHeap[T]) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !h.less(i, parent) {
			return
		}
		h.swap(i, parent)
		i = parent
	}
}

func (h *waitHeap[T]) down(i int) {
	n := len(h.entries)
	for {
		smallest := i
		if l := 2*i + 1; l < n && h.less(l, smallest) {
			smallest = l
		}
		if r := 2*i + 2; r < n && h.less(r, smallest) {
			smallest = r
		}
		if smallest == i {
			return
		}
		h.swap(i, smallest)
		i = smallest
	}
}
