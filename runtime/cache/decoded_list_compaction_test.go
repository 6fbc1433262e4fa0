package cache

import (
	"context"
	"testing"
	"time"
	"unsafe"

	"go.uber.org/goleak"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/informer-gen/informer-gen/runtime/compact"
)

// listDecodingServer is a decodingServer whose lists, too, hand over
// their items compact, as runtime/jsonwatch's Lister does: each item of
// a key the informer will compact against no hint is compacted (in the
// decoder) and adopted with compact.Decoded.AdoptCopied, and the
// reflector then takes a shallow copy of it.
type listDecodingServer struct {
	decodingServer
	compactor func(obj, old any)
}

func (s listDecodingServer) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	list, err := s.modelServer.ListWithContext(ctx, opts)
	if err != nil {
		return list, err
	}
	err = meta.EachListItem(list, func(item runtime.Object) error {
		if hint, key, ok := s.decoded.Previous(item); ok && hint == nil {
			s.log.inDecoder.Store(true)
			s.compactor(item, nil)
			s.log.inDecoder.Store(false)
			s.decoded.AdoptCopied(item, unsafe.Sizeof(metav1.PartialObjectMetadata{}), key, nil)
		}
		return nil
	})
	return list, err
}

func (s listDecodingServer) List(opts metav1.ListOptions) (runtime.Object, error) {
	return s.ListWithContext(context.Background(), opts)
}

// An informer given a Decoded that its lister hands listed items over
// with (AdoptCopied) does not compact them again, though the reflector
// hands it a copy of each: listed and watched objects are compacted once,
// in the decoder; with a transform or with compaction off the decoder
// compacts nothing.
func TestInformerSkipsTheCompactionOfListedObjectsItsDecoderCompacted(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, c := range []struct {
		name      string
		compact   bool
		transform TransformFunc
		want      []string
	}{
		{"compaction on", true, nil, []string{"oa by decoder", "ob by decoder", "oa<RV by decoder"}},
		{"a transform", true, func(obj any) (any, error) { return obj, nil }, []string{"oa by informer", "ob by informer", "oa<RV by informer"}},
		{"compaction off", false, nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(mutationDetectorEnv, "false")
			log := &compactions{}
			srv := newModelServer()
			addLabelled(t, srv, 2)
			opts := SharedIndexInformerOptions{Compact: c.compact, Compactor: log.compactor, Decoded: &compact.Decoded{}}
			lw := listDecodingServer{decodingServer{srv, opts.Decoded, log, false}, log.compactor}
			run := startInformerOver(t, lw, opts, c.transform)
			defer run.stop(t)
			waitConverged(t, srv, run)
			cached, _, _ := run.GetStore().GetByKey("ns/oa")
			o := cached.(*metav1.PartialObjectMetadata).DeepCopy()
			rv := o.ResourceVersion
			o.Labels = map[string]string{"app": "db"}
			if _, err := srv.Update(o); err != nil {
				t.Fatal(err)
			}
			waitConverged(t, srv, run)
			log.check(t, c.want, rv)
		})
	}
}

// startInformerOver runs a fresh informer over lw, with transform set
// before Run when not nil.
func startInformerOver(t *testing.T, lw ListerWatcher, opts SharedIndexInformerOptions, transform TransformFunc) *informerRun {
	t.Helper()
	clk := newAutoClock(100 * time.Millisecond)
	opts.Clock = clk
	inf := NewSharedIndexInformerWithOptions(lw, &metav1.PartialObjectMetadata{}, opts).(*sharedIndexInformer)
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
