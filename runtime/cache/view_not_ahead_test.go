package cache

import (
	"strconv"
	"sync"
	"testing"

	"go.uber.org/goleak"
)

// TestInformerHandlerViewNeverAheadOfCache pins the order the informer
// keeps between its cache and its handlers: a change is stored before it
// is notified, so a handler's view, read before the cache, never holds a
// newer object than the cache. A cache that went back in time after a
// handler heard of the newer object (a lost or reordered write) breaks
// it; a lagging pipeline does not. waitConverged relies on it: it reads
// the views first and fails at once when one is ahead.
func TestInformerHandlerViewNeverAheadOfCache(t *testing.T) {
	defer goleak.VerifyNone(t)
	const keys = 2000
	name := func(i int) string { return "o" + strconv.Itoa(i%keys) }
	tests := []struct {
		name   string
		change func(srv *modelServer)
	}{
		{name: "updates of every key, twice", change: func(srv *modelServer) {
			for i := 0; i < 2*keys; i++ {
				srv.put(name(i), false)
			}
		}},
		{name: "deletes and re-creations among updates", change: func(srv *modelServer) {
			for i := 0; i < 2*keys; i++ {
				switch {
				case i%7 == 0:
					srv.remove(name(i))
				case i%5 == 0:
					srv.put(name(i), true)
				default:
					srv.put(name(i), false)
				}
			}
		}},
		{name: "a relist after a partition, then updates", change: func(srv *modelServer) {
			srv.partition(func(p *partitionOps) {
				for i := 0; i < keys; i += 3 {
					p.put(name(i), i%2 == 0)
				}
			})
			for i := 0; i < keys; i++ {
				srv.put(name(i), false)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newModelServer()
			fill(srv, keys)
			h := newViewHandler()
			inf := startInformer(t, srv, SharedIndexInformerOptions{}, func(s *sharedIndexInformer) {
				mustAdd(t, s, h, HandlerOptions{Name: "view"})
			})
			defer inf.stop(t)
			waitConverged(t, srv, inf, h)

			stop := make(chan struct{})
			var wg sync.WaitGroup
			var ahead []string
			reads := 0
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
					}
					c := readConvergence(srv, inf, []*viewHandler{h})
					reads++
					ahead = append(ahead, c.viewAhead...)
				}
			}()
			tt.change(srv)
			waitConverged(t, srv, inf, h)
			close(stop)
			wg.Wait()
			if len(ahead) > 0 {
				t.Fatalf("in %d reads, a view was ahead of the cache: %v", reads, ahead[:min(10, len(ahead))])
			}
			h.checkViolations(t)
		})
	}
}
