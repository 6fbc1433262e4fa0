package workqueue

import (
	"fmt"
	"sync"
	"testing"
)

// BenchmarkAddGetDone measures one full item cycle (Add, Get, Done) with one
// producer feeding b.N distinct items to the given number of workers.
func BenchmarkAddGetDone(b *testing.B) {
	for _, workers := range []int{1, 4} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			q := New(Config[int]{})
			var wg sync.WaitGroup
			for range workers {
				wg.Go(func() {
					for {
						item, shutdown := q.Get()
						if shutdown {
							return
						}
						q.Done(item)
					}
				})
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				q.Add(i)
			}
			q.ShutDownWithDrain()
			wg.Wait()
		})
	}
}

// BenchmarkAddGetDoneSequential measures the uncontended cost of one cycle
// on a single goroutine, with a small rotating key space.
func BenchmarkAddGetDoneSequential(b *testing.B) {
	q := New(Config[int]{})
	defer q.ShutDown()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		q.Add(i & 1023)
		item, _ := q.Get()
		q.Done(item)
	}
}
