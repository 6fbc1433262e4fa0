package cache

import "sync"

// SyncErrorNotifier is a SyncErrorReporter that also says when it records
// a failure, so that whoever waits for a sync can stop at a failure without
// polling SyncError (a shared informer factory's fail-fast wait does).
// This package's shared informers implement it, and so do the factory's
// several-namespace informers.
type SyncErrorNotifier interface {
	SyncErrorReporter
	// AfterSyncError arranges for f to be called with every list or watch
	// failure the informer records from now on and waits after before
	// trying again (what SyncError returns while the informer has not
	// synced; f is told after SyncError can return it), until stop is
	// called. A failure followed at once by another attempt, such as a
	// watch list's that falls back to a list, is recorded but not told:
	// the next attempt's outcome is. f runs on the goroutine that records the
	// failure (the informer's reflector), so it must return quickly and
	// must not call back into the informer's registration methods. stop
	// reports whether it removed f (false when an earlier call did); a
	// call of f that had already begun may still complete after stop.
	AfterSyncError(f func(err error)) (stop func() bool)
}

// syncErrorSubscribers holds the functions registered with
// AfterSyncError and calls them with each failure. The zero value is
// ready to use.
type syncErrorSubscribers struct {
	// mu guards next and fns.
	mu   sync.Mutex
	next uint64
	fns  map[uint64]func(error)
}

// add registers f until the returned stop is called.
func (s *syncErrorSubscribers) add(f func(error)) (stop func() bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fns == nil {
		s.fns = map[uint64]func(error){}
	}
	id := s.next
	s.next++
	s.fns[id] = f
	return func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		_, ok := s.fns[id]
		delete(s.fns, id)
		return ok
	}
}

// notify calls every registered function with err, without holding mu,
// so a function may stop itself or others.
func (s *syncErrorSubscribers) notify(err error) {
	s.mu.Lock()
	if len(s.fns) == 0 {
		s.mu.Unlock()
		return
	}
	fns := make([]func(error), 0, len(s.fns))
	for _, f := range s.fns {
		fns = append(fns, f)
	}
	s.mu.Unlock()
	for _, f := range fns {
		f(err)
	}
}

// AfterSyncError calls f with every list or watch failure the informer's
// reflector records from now on and backs off after, as an
// *InformerSyncError, until stop is called. See SyncErrorNotifier.
func (s *sharedIndexInformer) AfterSyncError(f func(err error)) (stop func() bool) {
	return s.syncErrorSubs.add(f)
}

var _ SyncErrorNotifier = (*sharedIndexInformer)(nil)
