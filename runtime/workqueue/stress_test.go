package workqueue

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
)

// TestManyProducersAndConsumers runs producers using Add, AddAfter and
// AddRateLimited against workers that sometimes requeue, under -race, and
// checks the queue's invariants: no item is held by two workers at once,
// every item added is processed at least once after its last add, and
// ShutDownWithDrain leaves nothing in flight.
func TestManyProducersAndConsumers(t *testing.T) {
	const (
		producers = 8
		workers   = 8
		perProd   = 5000
		keys      = 64
	)
	q := New(Config[int]{
		RateLimiter: NewExponentialBackoff[int](time.Microsecond, time.Millisecond),
	})

	var (
		inFlight  [keys]atomic.Int32
		overlaps  atomic.Int32
		processed [keys]atomic.Int64 // number of times each key was processed
	)
	var workersWG sync.WaitGroup
	for w := range workers {
		workersWG.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			for {
				item, shutdown := q.Get()
				if shutdown {
					return
				}
				if inFlight[item].Add(1) != 1 {
					overlaps.Add(1)
				}
				processed[item].Add(1)
				if rng.IntN(10) == 0 {
					q.AddRateLimited(item)
				} else {
					q.Forget(item)
				}
				inFlight[item].Add(-1)
				q.Done(item)
			}
		})
	}

	var producersWG sync.WaitGroup
	for p := range producers {
		producersWG.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(p), 2))
			for range perProd {
				key := rng.IntN(keys)
				switch rng.IntN(3) {
				case 0:
					q.AddAfter(key, time.Duration(rng.IntN(100))*time.Microsecond)
				default:
					q.Add(key)
				}
			}
		})
	}
	producersWG.Wait()

	// After all producers finished, add every key once more: each must be
	// processed again, after this add, before the queue drains.
	var before [keys]int64
	for k := range keys {
		before[k] = processed[k].Load()
		q.Add(k)
	}
	cachetest.EventuallyExplained(t, func() (bool, string) {
		for k := range keys {
			if processed[k].Load() <= before[k] {
				return false, fmt.Sprintf("key %d was not processed after its last Add", k)
			}
		}
		return true, ""
	})
	q.ShutDownWithDrain()
	workersWG.Wait()

	if n := overlaps.Load(); n != 0 {
		t.Fatalf("%d times an item was held by two workers at once", n)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.inFlight != 0 {
		t.Fatalf("%d items still processing after drain", q.inFlight)
	}
}
