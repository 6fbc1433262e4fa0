package cache

import (
	"testing"
)

// rvRecordingStore is a Store that also takes bookmarks and
// resourceVersions and has a transform: every optional interface a
// storeSink reads.
type rvRecordingStore struct {
	Store
	bookmarks []string
	rvs       []string
}

func (s *rvRecordingStore) Bookmark(rv string) error {
	s.bookmarks = append(s.bookmarks, rv)
	return nil
}

func (s *rvRecordingStore) UpdateResourceVersion(rv string) { s.rvs = append(s.rvs, rv) }

func (s *rvRecordingStore) Transformer() TransformFunc {
	return func(obj any) (any, error) { return obj, nil }
}

// The sink is chosen once, from what the store is: a DeltaFIFO's streams
// its first list, prepares other lists, defers AfterApplied to its
// consumer and prunes; any other store gets its optional interfaces
// forwarded and the rest done the plain way.
func TestNewSinkChoosesOnceFromTheStore(t *testing.T) {
	t.Run("DeltaFIFO", func(t *testing.T) {
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KeyFunction: MetaNamespaceKeyFunc})
		s := newSink(f)
		if s != f.sink() {
			t.Fatalf("newSink(*DeltaFIFO) = %T, want the queue's own sink", s)
		}
		if s.TracksResourceVersion() {
			t.Error("a DeltaFIFO's sink tracks resourceVersions")
		}
		if _, ok := s.OpenFirstList(); !ok {
			t.Error("a fresh DeltaFIFO does not open a first list")
		}
		if _, ok := s.OpenFirstList(); ok {
			t.Error("a DeltaFIFO opened a second first list while one is open")
		}
		if pruned, err := s.Prune(func(any) bool { return true }); !pruned || err != nil {
			t.Errorf("Prune = %v, %v; want true, nil", pruned, err)
		}
	})
	t.Run("store with every optional interface", func(t *testing.T) {
		st := &rvRecordingStore{Store: NewStore(MetaNamespaceKeyFunc)}
		s := newSink(st)
		if !s.TracksResourceVersion() {
			t.Error("a ResourceVersionUpdater's sink does not track resourceVersions")
		}
		s.UpdateResourceVersion("7")
		if err := s.Bookmark("8"); err != nil {
			t.Fatal(err)
		}
		if len(st.rvs) != 1 || st.rvs[0] != "7" || len(st.bookmarks) != 1 || st.bookmarks[0] != "8" {
			t.Errorf("store heard rvs %v, bookmarks %v; want [7], [8]", st.rvs, st.bookmarks)
		}
		if s.ListTransformer() == nil {
			t.Error("a TransformingStore's sink has no list transformer")
		}
	})
	t.Run("plain store", func(t *testing.T) {
		s := newSink(NewStore(MetaNamespaceKeyFunc))
		if s.TracksResourceVersion() || s.ListTransformer() != nil {
			t.Error("a plain store's sink tracks resourceVersions or transforms lists")
		}
		if _, ok := s.OpenFirstList(); ok {
			t.Error("a plain store's sink opened a streamed first list")
		}
		if pruned, _ := s.Prune(func(any) bool { return false }); pruned {
			t.Error("a plain store's sink pruned")
		}
		ran := false
		s.AfterApplied(func() { ran = true })
		if !ran {
			t.Error("a plain store's sink did not run AfterApplied's fn at once")
		}
	})
}
