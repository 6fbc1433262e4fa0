package cache

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen/informer-gen/runtime/compact"
)

// decodingServer is a modelServer whose watch compacts each event's
// object through decoded before sending it, on the watch's goroutine, as
// runtime/jsonwatch's Watcher does with its decoded objects.
type decodingServer struct {
	*modelServer
	decoded *compact.Decoded
	// inDecoder is set while decoded compacts an object.
	inDecoder *atomic.Bool
}

func (s decodingServer) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	w, err := s.modelServer.WatchWithContext(ctx, opts)
	if err != nil {
		return nil, err
	}
	return watch.Filter(w, func(e watch.Event) (watch.Event, bool) {
		if e.Type != watch.Bookmark && e.Type != watch.Error {
			s.inDecoder.Store(true)
			s.decoded.Compact(e.Object, e.Type == watch.Deleted)
			s.inDecoder.Store(false)
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
			run := startDecodingInformer(t, srv, opts, c.transform, &log.inDecoder)
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

// compactions records a test informer's compactions: each object's name,
// "<" and the old version's resourceVersion when there is one, and
// whether the decoder (inDecoder set) or the informer made it.
type compactions struct {
	inDecoder atomic.Bool
	mu        sync.Mutex // guards calls
	calls     []string
}

// compactor is the informer's Compactor: it records the call.
func (c *compactions) compactor(obj, old any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	call := obj.(*metav1.PartialObjectMetadata).Name
	if old != nil {
		call += "<" + old.(*metav1.PartialObjectMetadata).ResourceVersion
	}
	c.calls = append(c.calls, call+map[bool]string{true: " by decoder", false: " by informer"}[c.inDecoder.Load()])
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

// startDecodingInformer runs a fresh informer over srv whose watch
// compacts through opts.Decoded (decodingServer), with transform set
// before Run when not nil.
func startDecodingInformer(t *testing.T, srv *modelServer, opts SharedIndexInformerOptions, transform TransformFunc, inDecoder *atomic.Bool) *informerRun {
	t.Helper()
	clk := newAutoClock(100 * time.Millisecond)
	opts.Clock = clk
	inf := NewSharedIndexInformerWithOptions(decodingServer{srv, opts.Decoded, inDecoder}, &metav1.PartialObjectMetadata{}, opts).(*sharedIndexInformer)
	if transform != nil {
		if err := inf.SetTransform(transform); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	run := &informerRun{sharedIndexInformer: inf, cancel: cancel, done: make(chan struct{}), clock: clk}
	go func() {
		defer close(run.done)
		inf.RunWithContext(ctx)
	}()
	return run
}
