package cache

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen/informer-gen/runtime/compact"
)

// decodingServer is a modelServer whose watch compacts each event's
// object through decoded before sending it, on the watch's goroutine, in
// a session of its own, as runtime/jsonwatch's Watcher does with its
// decoded objects.
type decodingServer struct {
	*modelServer
	decoded *compact.Decoded
	// log records the compactions and, with readsHint, the hints read.
	log *compactions
	// readsHint makes the watch read the managedFields of the version
	// each object is compacted against first, as a generated decoder
	// compares the parts it decodes with that version's.
	readsHint bool
}

func (s decodingServer) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	w, err := s.modelServer.WatchWithContext(ctx, opts)
	if err != nil {
		return nil, err
	}
	session := s.decoded.Begin() // one per stream, as the watchers begin one
	return watch.Filter(w, func(e watch.Event) (watch.Event, bool) {
		if e.Type != watch.Bookmark && e.Type != watch.Error {
			s.log.inDecoder.Store(true)
			if hint, _, _ := session.Previous(e.Object); s.readsHint && hint != nil {
				_ = len(hint.(*metav1.PartialObjectMetadata).ManagedFields)
				s.log.readHint(hint.(*metav1.PartialObjectMetadata))
			}
			session.Compact(e.Object, e.Type == watch.Deleted)
			s.log.inDecoder.Store(false)
		}
		return e, true
	}), nil
}

func (s decodingServer) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return s.WatchWithContext(context.Background(), opts)
}

// An informer given a Decoded compacts each object once: listed objects
// itself, watched ones in the decoder, against the hint the queue has,
// which it then does not compact again; with a transform, which must see
// objects before they are compacted, or with compaction off, the decoder
// compacts nothing, but StripManagedFields (a factory's default), which
// writes no shared part, leaves the decoder compacting and still strips.
func TestInformerSkipsTheCompactionOfObjectsItsDecoderCompacted(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, c := range []struct {
		name      string
		compact   bool
		transform TransformFunc
		// want are the compactions: name<old resourceVersion, and
		// whether the decoder made it.
		want []string
	}{
		{"compaction on", true, nil, []string{"oa by informer", "oa<RV by decoder"}},
		{"a transform", true, func(obj any) (any, error) { return obj, nil }, []string{"oa by informer", "oa<RV by informer"}},
		{"compaction off", false, nil, nil},
		{"the managedFields-stripping transform", true, StripManagedFields, []string{"oa by informer", "oa<RV by decoder"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(mutationDetectorEnv, "false")
			log := &compactions{}
			srv := newModelServer()
			addLabelled(t, srv, 1)
			opts := SharedIndexInformerOptions{Compact: c.compact, Compactor: log.compactor, Decoded: &compact.Decoded{}}
			run := startInformerOver(t, decodingServer{srv, opts.Decoded, log, false}, opts, c.transform)
			defer run.stop(t)
			waitConverged(t, srv, run)
			cached, _, _ := run.GetStore().GetByKey("ns/oa")
			o := cached.(*metav1.PartialObjectMetadata).DeepCopy()
			rv := o.ResourceVersion
			o.Labels = map[string]string{"app": "db"}
			o.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationUpdate}}
			if _, err := srv.Update(o); err != nil {
				t.Fatal(err)
			}
			waitConverged(t, srv, run)
			log.check(t, c.want, rv)
			cached, _, _ = run.GetStore().GetByKey("ns/oa")
			if strips := c.transform != nil && decodedCompactionAllows(c.transform); strips && cached.(*metav1.PartialObjectMetadata).ManagedFields != nil {
				t.Errorf("cached managedFields %v, want them stripped", cached.(*metav1.PartialObjectMetadata).ManagedFields)
			}
		})
	}
}

// A decoder reads the object it handed over last for a key (the hint of
// that key's next object) while the informer takes that object; with
// StripManagedFields, the factory's default transform, the decoder
// strips the object before it hands it over, so the informer's transform
// writes nothing the decoder reads (under -race, a write there fails
// this test), and the cache still holds no managedFields.
func TestDecoderReadsTheObjectItHandedOverWhileTheInformerStripsIt(t *testing.T) {
	defer goleak.VerifyNone(t)
	t.Setenv(mutationDetectorEnv, "false")
	log := &compactions{}
	srv := newModelServer()
	addLabelled(t, srv, 1)
	opts := SharedIndexInformerOptions{Compact: true, Compactor: log.compactor, Decoded: &compact.Decoded{}}
	run := startInformerOver(t, decodingServer{srv, opts.Decoded, log, true}, opts, StripManagedFields)
	defer run.stop(t)
	waitConverged(t, srv, run)
	for i := range 200 {
		updateRound(t, srv, i, []metav1.ManagedFieldsEntry{{Manager: "kubectl-" + strconv.Itoa(i), Operation: metav1.ManagedFieldsOperationUpdate}})
	}
	waitConverged(t, srv, run)
	cached, _, _ := run.GetStore().GetByKey("ns/oa")
	if mf := cached.(*metav1.PartialObjectMetadata).ManagedFields; mf != nil {
		t.Errorf("cached managedFields %v, want them stripped", mf)
	}
}

// Across watch streams and relists, a decoder never reads an object the
// informer compacts: an object a stream handed over (decoded one event
// ahead of the reflector) may never be taken, or a relist may replace
// it, and the informer would then compact the next stream's object of
// that key, decoded against it, again, while the decoder reads it as the
// hint of the key's next object; each stream's session
// (compact.DecodedSession) keeps earlier streams' objects out of its
// hints. Whether the two overlap in time is the scheduler's choice, so
// the test records the objects and fails on any that a decoder
// compacted and read as a hint and that the informer compacted again.
func TestDecoderNeverReadsAnObjectTheInformerCompactsAcrossStreamsAndRelists(t *testing.T) {
	defer goleak.VerifyNone(t)
	t.Setenv(mutationDetectorEnv, "false")
	log := &compactions{}
	srv := newModelServer()
	addLabelled(t, srv, 1)
	opts := SharedIndexInformerOptions{Compact: true, Compactor: log.compactor, Decoded: &compact.Decoded{}}
	run := startInformerOver(t, decodingServer{srv, opts.Decoded, log, true}, opts, nil)
	defer run.stop(t)
	waitConverged(t, srv, run)
	for i := range 300 {
		updateRound(t, srv, i, nil)
		switch i % 25 {
		case 10:
			srv.CloseWatches()
		case 20:
			if err := srv.ExpireWatches(nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	waitConverged(t, srv, run)
	log.mu.Lock()
	defer log.mu.Unlock()
	for obj := range log.byInformer {
		if log.readAsHint[obj] && log.decoded[obj] {
			t.Errorf("the informer compacted %s (resourceVersion %s), which a decoder read as a hint", obj.Name, obj.ResourceVersion)
		}
	}
}

// updateRound updates ns/oa on srv for round i: a label of the round's,
// and managedFields.
func updateRound(t *testing.T, srv *modelServer, i int, managedFields []metav1.ManagedFieldsEntry) {
	t.Helper()
	cached, _ := srv.Get("ns", "oa")
	o := cached.(*metav1.PartialObjectMetadata).DeepCopy()
	o.Labels = map[string]string{"app": "db", "round": strconv.Itoa(i)}
	o.ManagedFields = managedFields
	if _, err := srv.Update(o); err != nil {
		t.Fatal(err)
	}
}

// compactions records a test informer's compactions: each object's name,
// "<" and the old version's resourceVersion when there is one, and
// whether the decoder (inDecoder set) or the informer made it.
type compactions struct {
	inDecoder atomic.Bool
	mu        sync.Mutex // guards calls, byInformer and readAsHint
	calls     []string
	// byInformer are the objects the informer compacted, decoded those
	// a decoder compacted, readAsHint the hints a decoder read
	// (decodingServer.readsHint).
	byInformer, decoded, readAsHint map[*metav1.PartialObjectMetadata]bool
}

// readHint records that a decoder read hint.
func (c *compactions) readHint(hint *metav1.PartialObjectMetadata) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.readAsHint == nil {
		c.readAsHint = map[*metav1.PartialObjectMetadata]bool{}
	}
	c.readAsHint[hint] = true
}

// compactor is the informer's Compactor: it records the call.
func (c *compactions) compactor(obj, old any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	call := obj.(*metav1.PartialObjectMetadata).Name
	if old != nil {
		call += "<" + old.(*metav1.PartialObjectMetadata).ResourceVersion
	}
	byDecoder := c.inDecoder.Load()
	c.calls = append(c.calls, call+map[bool]string{true: " by decoder", false: " by informer"}[byDecoder])
	if c.byInformer == nil {
		c.byInformer, c.decoded = map[*metav1.PartialObjectMetadata]bool{}, map[*metav1.PartialObjectMetadata]bool{}
	}
	if byDecoder {
		c.decoded[obj.(*metav1.PartialObjectMetadata)] = true
	} else {
		c.byInformer[obj.(*metav1.PartialObjectMetadata)] = true
	}
}

// check fails t unless the compactions are want, with RV standing for rv.
func (c *compactions) check(t *testing.T, want []string, rv string) {
	t.Helper()
	var w []string
	for _, x := range want {
		w = append(w, strings.ReplaceAll(x, "RV", rv))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !slices.Equal(c.calls, w) {
		t.Errorf("compactions %v, want %v", c.calls, w)
	}
}
