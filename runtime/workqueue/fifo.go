package workqueue

// fifo is a growable ring buffer of items in arrival order. It is not safe
// for concurrent use; Queue guards it with its mutex. Steady-state Push/Pop
// cycles do not allocate.
type fifo[T any] struct {
	buf  []T
	head int // index of the oldest item
	n    int // number of items
}

// Len returns the number of items held.
func (f *fifo[T]) Len() int { return f.n }

// Push appends item at the tail, growing the buffer when it is full.
func (f *fifo[T]) Push(item T) {
	if f.n == len(f.buf) {
		f.grow()
	}
	f.buf[(f.head+f.n)%len(f.buf)] = item
	f.n++
}

// Pop removes and returns the oldest item. It panics if the fifo is empty.
func (f *fifo[T]) Pop() T {
	if f.n == 0 {
		panic("workqueue: Pop on empty fifo")
	}
	var zero T
	item := f.buf[f.head]
	f.buf[f.head] = zero // drop the reference for the garbage collector
	f.head = (f.head + 1) % len(f.buf)
	f.n--
	return item
}

// grow doubles the capacity (minimum 16), compacting the items to the front.
func (f *fifo[T]) grow() {
	size := 2 * len(f.buf)
	if size < 16 {
		size = 16
	}
	buf := make([]T, size)
	if f.n > 0 {
		k := copy(buf, f.buf[f.head:])
		copy(buf[k:f.n], f.buf[:f.head])
	}
	f.buf = buf
	f.head = 0
}
