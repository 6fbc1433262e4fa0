package cache

import (
	"container/heap"
	"errors"
	"sync"
)

// LessFunc is used to compare two objects in the heap.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type LessFunc func(any, any) bool

// errHeapClosed and errHeapNotFound are client-go's Heap errors, with its
// messages.
var (
	errHeapClosed   = errors.New("heap is closed")
	errHeapNotFound = errors.New("object not found")
)

// Heap is a thread-safe producer/consumer queue that implements a heap
// data structure, ordered by a LessFunc and keyed by a KeyFunc: adding an
// object whose key is queued replaces it. It can be used to implement
// priority queues and similar data structures.
//
// The informer does not use it; it is here for code written against
// client-go's tools/cache.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type Heap struct {
	// lock guards data and closed; cond waits on it.
	lock sync.RWMutex
	cond sync.Cond

	data   *heapData // guarded by lock
	closed bool      // guarded by lock
}

// NewHeap returns a Heap which can be used to queue up items to process.
func NewHeap(keyFn KeyFunc, lessFn LessFunc) *Heap {
	h := &Heap{data: &heapData{items: map[string]*heapItem{}, keyFunc: keyFn, lessFunc: lessFn}}
	h.cond.L = &h.lock
	return h
}

// Close closes the Heap and wakes up Pop calls waiting for an item.
func (h *Heap) Close() {
	h.lock.Lock()
	defer h.lock.Unlock()
	h.closed = true
	h.cond.Broadcast()
}

// Add inserts obj, or replaces the object queued under its key.
func (h *Heap) Add(obj any) error { return h.write(obj, h.data.set) }

// write computes obj's key and, unless the Heap is closed, puts obj with
// put and wakes up Pop.
func (h *Heap) write(obj any, put func(key string, obj any)) error {
	key, err := h.data.keyFunc(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	h.lock.Lock()
	defer h.lock.Unlock()
	if h.closed {
		return errHeapClosed
	}
	put(key, obj)
	h.cond.Broadcast()
	return nil
}

// BulkAdd adds (or replaces) every object of list, then wakes up Pop. It
// stops at the first object whose key cannot be computed, keeping those
// added before it.
func (h *Heap) BulkAdd(list []any) error {
	h.lock.Lock()
	defer h.lock.Unlock()
	if h.closed {
		return errHeapClosed
	}
	for _, obj := range list {
		key, err := h.data.keyFunc(obj)
		if err != nil {
			return KeyError{obj, err}
		}
		h.data.set(key, obj)
	}
	h.cond.Broadcast()
	return nil
}

// AddIfNotPresent inserts obj unless an object is queued under its key,
// which it then leaves unchanged. A single consumer can so retry an item
// without racing the producer into queueing a stale one.
func (h *Heap) AddIfNotPresent(obj any) error { return h.write(obj, h.data.setIfAbsent) }

// Update is Add.
func (h *Heap) Update(obj any) error { return h.Add(obj) }

// Delete removes the object queued under obj's key; it fails with "object
// not found" when there is none.
func (h *Heap) Delete(obj any) error {
	key, err := h.data.keyFunc(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	h.lock.Lock()
	defer h.lock.Unlock()
	if item, ok := h.data.items[key]; ok {
		heap.Remove(h.data, item.index)
		return nil
	}
	return errHeapNotFound
}

// Pop waits until an object is queued and removes and returns the least
// one by the LessFunc. Once the Heap is closed and empty it returns the
// error "heap is closed".
func (h *Heap) Pop() (any, error) {
	h.lock.Lock()
	defer h.lock.Unlock()
	for len(h.data.queue) == 0 {
		if h.closed {
			return nil, errHeapClosed
		}
		h.cond.Wait()
	}
	return heap.Pop(h.data).(*heapItem).obj, nil
}

// List returns the queued objects, in no particular order.
func (h *Heap) List() []any {
	h.lock.RLock()
	defer h.lock.RUnlock()
	list := make([]any, 0, len(h.data.items))
	for _, item := range h.data.items {
		list = append(list, item.obj)
	}
	return list
}

// ListKeys returns the keys of the queued objects, in no particular order.
func (h *Heap) ListKeys() []string {
	h.lock.RLock()
	defer h.lock.RUnlock()
	list := make([]string, 0, len(h.data.items))
	for key := range h.data.items {
		list = append(list, key)
	}
	return list
}

// Get returns the object queued under obj's key.
func (h *Heap) Get(obj any) (any, bool, error) {
	key, err := h.data.keyFunc(obj)
	if err != nil {
		return nil, false, KeyError{obj, err}
	}
	return h.GetByKey(key)
}

// GetByKey returns the object queued under key.
func (h *Heap) GetByKey(key string) (any, bool, error) {
	h.lock.RLock()
	defer h.lock.RUnlock()
	item, ok := h.data.items[key]
	if !ok {
		return nil, false, nil
	}
	return item.obj, true, nil
}

// IsClosed reports whether Close was called.
func (h *Heap) IsClosed() bool {
	h.lock.RLock()
	defer h.lock.RUnlock()
	return h.closed
}

// setIfAbsent queues obj unless an object is queued under key.
func (d *heapData) setIfAbsent(key string, obj any) {
	if _, ok := d.items[key]; !ok {
		heap.Push(d, &heapItem{key: key, obj: obj})
	}
}

// heapItem is one queued object and its position in heapData.queue.
type heapItem struct {
	key   string
	obj   any
	index int
}

// heapData is the container/heap of a Heap: queue is kept in heap order by
// lessFunc, items finds a key's entry. Guarded by its Heap's lock.
type heapData struct {
	items    map[string]*heapItem
	queue    []*heapItem
	keyFunc  KeyFunc
	lessFunc LessFunc
}

// set replaces the object queued under key, or queues obj.
func (d *heapData) set(key string, obj any) {
	if item, ok := d.items[key]; ok {
		item.obj = obj
		heap.Fix(d, item.index)
		return
	}
	heap.Push(d, &heapItem{key: key, obj: obj})
}

func (d *heapData) Len() int { return len(d.queue) }

func (d *heapData) Less(i, j int) bool { return d.lessFunc(d.queue[i].obj, d.queue[j].obj) }

func (d *heapData) Swap(i, j int) {
	d.queue[i], d.queue[j] = d.queue[j], d.queue[i]
	d.queue[i].index, d.queue[j].index = i, j
}

// Push is for container/heap only.
func (d *heapData) Push(x any) {
	item := x.(*heapItem)
	item.index = len(d.queue)
	d.items[item.key] = item
	d.queue = append(d.queue, item)
}

// Pop is for container/heap only.
func (d *heapData) Pop() any {
	n := len(d.queue) - 1
	item := d.queue[n]
	d.queue[n] = nil
	d.queue = d.queue[:n]
	delete(d.items, item.key)
	return item
}
