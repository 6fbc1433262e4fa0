package cache

import (
	"context"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"unsafe"

	"go.uber.org/goleak"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/informer-gen/informer-gen/runtime/compact"
)

// relistDecodingServer is a decodingServer whose every list hands over
// its items compact, as runtime/jsonwatch's Lister does: each item is
// compacted (in the decoder) against the version the informer will
// compact it against (compact.Decoded.Previous: none on a first list,
// the cached version on a relist) and adopted with that version
// (compact.Decoded.AdoptCopied), but for an item at the cached version,
// which the informer keeps as cached. When stale is set, the decoder
// compacts and adopts against a copy of that version instead: the
// version the informer compacts against is then not the decoder's, as
// when the cache changed between the decode and the informer's
// compaction.
type relistDecodingServer struct {
	decodingServer
	compactor func(obj, old any)
	stale     *atomic.Bool
}

func (s relistDecodingServer) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	list, err := s.modelServer.ListWithContext(ctx, opts)
	if err != nil {
		return list, err
	}
	err = meta.EachListItem(list, func(item runtime.Object) error {
		hint, key, ok := s.decoded.Previous(item)
		if !ok {
			return nil
		}
		if old, cached := hint.(*metav1.PartialObjectMetadata); cached {
			obj := item.(*metav1.PartialObjectMetadata)
			if obj.UID == old.UID && obj.ResourceVersion == old.ResourceVersion {
				return nil // unchanged: the informer keeps the cached object
			}
			if s.stale.Load() {
				hint = old.DeepCopy()
			}
		}
		s.log.inDecoder.Store(true)
		s.compactor(item, hint)
		s.log.inDecoder.Store(false)
		s.decoded.AdoptCopied(item, unsafe.Sizeof(metav1.PartialObjectMetadata{}), key, hint)
		return nil
	})
	return list, err
}

func (s relistDecodingServer) List(opts metav1.ListOptions) (runtime.Object, error) {
	return s.ListWithContext(context.Background(), opts)
}

// A relist's items handed over compact against the cached versions are
// not compacted again by the informer, which compacts them against the
// same versions; an item whose decoder compacted it against another
// version than the informer's (the cache changed in between) is
// compacted again by the informer against its own; unchanged items are
// compacted by neither (the informer keeps the cached objects).
func TestInformerSkipsTheCompactionOfRelistedObjectsItsDecoderCompacted(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, c := range []struct {
		name  string
		stale bool
		// relisted are the compactions of the relist of oa and oc
		// (changed) and ob (unchanged): name<old resourceVersion, by
		// whom.
		relisted []string
	}{
		{"the decoder's version is the informer's", false, []string{"oa<RVa by decoder", "oc<RVc by decoder"}},
		{"the cache changed in between", true, []string{"oa<RVa by decoder", "oc<RVc by decoder", "oa<RVa by informer", "oc<RVc by informer"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(mutationDetectorEnv, "false")
			log := &compactions{}
			srv := newModelServer()
			addLabelled(t, srv, 3)
			opts := SharedIndexInformerOptions{Compact: true, Compactor: log.compactor, Decoded: &compact.Decoded{}}
			stale := &atomic.Bool{}
			lw := relistDecodingServer{decodingServer{srv, opts.Decoded, log, false}, log.compactor, stale}
			run := startInformerOver(t, lw, opts, nil)
			defer run.stop(t)
			waitConverged(t, srv, run)
			rv := map[string]string{}
			for _, name := range []string{"oa", "oc"} {
				cached, _, _ := run.GetStore().GetByKey("ns/" + name)
				rv[name] = cached.(*metav1.PartialObjectMetadata).ResourceVersion
			}
			stale.Store(c.stale)
			// Changed where no watch sees it: the informer relists.
			srv.partition(func(p *partitionOps) { p.put("oa", false); p.put("oc", false) })
			waitConverged(t, srv, run)
			want := []string{"oa by decoder", "ob by decoder", "oc by decoder"}
			versions := strings.NewReplacer("RVa", rv["oa"], "RVc", rv["oc"])
			for _, call := range c.relisted {
				want = append(want, versions.Replace(call))
			}
			log.mu.Lock()
			defer log.mu.Unlock()
			if !slices.Equal(log.calls, want) {
				t.Errorf("compactions %v, want %v", log.calls, want)
			}
		})
	}
}
