package cache

import (
	"strconv"
	"testing"

	"go.uber.org/goleak"
)

// The operations FuzzInformerConverges plays, one per byte (op = byte % 8;
// the next byte picks the object, o0..o7, where one is needed): create or
// update, update, delete, re-create with a new UID (the watch sees only an
// ADDED), bookmark, close the watches, expire them (410), and partition:
// delete, update or re-create an object out of sight of any watch and
// compact the history, so only a relist reveals it.
const (
	fuzzPut = iota
	fuzzUpdate
	fuzzDelete
	fuzzRecreate
	fuzzBookmark
	fuzzCloseWatches
	fuzzExpire
	fuzzPartition
)

// fuzzSeeds are meaningful scripts: plain changes, watch drops, relists
// that hide deletes and re-creations, a mix.
var fuzzSeeds = [][]byte{
	{fuzzPut, 0, fuzzPut, 1, fuzzUpdate, 0, fuzzDelete, 1},
	{fuzzPut, 0, fuzzPut, 1, fuzzCloseWatches, fuzzUpdate, 1, fuzzDelete, 0, fuzzPut, 2},
	{fuzzPut, 0, fuzzPut, 1, fuzzPut, 2, fuzzPartition, 1, fuzzPartition, 10, fuzzUpdate, 2},
	{fuzzPut, 3, fuzzRecreate, 3, fuzzPartition, 3 + 16, fuzzUpdate, 3},
	{fuzzPut, 0, fuzzBookmark, fuzzUpdate, 0, fuzzExpire, fuzzUpdate, 0, fuzzExpire, fuzzDelete, 0},
	{fuzzPut, 0, fuzzPut, 1, fuzzPut, 2, fuzzPut, 3, fuzzCloseWatches, fuzzPartition, 0, fuzzPartition, 1 + 8, fuzzRecreate, 2, fuzzDelete, 3, fuzzExpire, fuzzPut, 4, fuzzBookmark, fuzzUpdate, 4},
	{fuzzPut, 5, fuzzDelete, 5, fuzzPut, 5, fuzzDelete, 5, fuzzPut, 5, fuzzPartition, 5, fuzzPut, 5},
}

// FuzzInformerConverges plays a script of server changes, watch drops,
// expiries and out-of-sight changes against an informer with handlers that
// lag (a tiny in-order buffer forces coalescing) and one that joins midway,
// then checks that the cache equals the server and every handler's view,
// rebuilt from its notifications alone, equals the cache, with every
// notification consistent with what the handler saw before.
func FuzzInformerConverges(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script []byte) {
		if len(script) > 256 {
			script = script[:256]
		}
		defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
		srv := newModelServer()
		early, stalled := newViewHandler(), newViewHandler()
		stalled.gate = make(chan struct{})
		inf := startInformer(t, srv, SharedIndexInformerOptions{}, func(s *sharedIndexInformer) {
			s.fastCapacity = 2
			mustAdd(t, s, early, HandlerOptions{Name: "early"})
			mustAdd(t, s, stalled, HandlerOptions{Name: "stalled"})
		})
		defer inf.stop(t)
		late := newViewHandler()
		name := func(i int) string {
			if i < len(script) {
				return "o" + strconv.Itoa(int(script[i]%8))
			}
			return "o0"
		}
		lateAdded := false
		for i := 0; i < len(script); i++ {
			if i >= len(script)/2 && !lateAdded {
				mustAdd(t, inf, late, HandlerOptions{Name: "late"})
				lateAdded = true
			}
			switch script[i] % 8 {
			case fuzzPut, fuzzUpdate:
				i++
				srv.put(name(i), false)
			case fuzzDelete:
				i++
				srv.remove(name(i))
			case fuzzRecreate:
				i++
				if n := name(i); srv.has(n) {
					srv.put(n, true)
				}
			case fuzzBookmark:
				srv.bookmark()
			case fuzzCloseWatches:
				srv.closeWatches()
			case fuzzExpire:
				srv.expire()
			case fuzzPartition:
				i++
				var b byte
				if i < len(script) {
					b = script[i]
				}
				n := name(i)
				srv.partition(func(p *partitionOps) {
					switch b / 8 % 3 {
					case 0:
						p.remove(n)
					case 1:
						p.put(n, false)
					default:
						p.put(n, true)
					}
				})
			}
		}
		if !lateAdded {
			mustAdd(t, inf, late, HandlerOptions{Name: "late"})
		}
		close(stalled.gate)
		waitConverged(t, srv, inf, early, stalled, late)
		early.checkViolations(t)
		stalled.checkViolations(t)
		late.checkViolations(t)
	})
}
