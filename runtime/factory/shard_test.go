package factory

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
)

// everything is a shard that holds every object and adds no selector.
type everything struct{}

func (everything) ApplyTo(*metav1.ListOptions) {}
func (everything) Contains(metav1.Object) bool { return true }

// recordingSource is a static ShardSource that records its subscribers.
type recordingSource struct {
	name string

	mu          sync.Mutex
	subscribers []string
}

func (s *recordingSource) Subscribe(informer string) cache.ShardSubscription {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.subscribers = append(s.subscribers, informer)
	return staticSubscription{}
}

func (s *recordingSource) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.subscribers)
}

type staticSubscription struct{}

func (staticSubscription) Current() (cache.Shard, <-chan struct{}) { return everything{}, nil }
func (staticSubscription) Applied(cache.Shard)                     {}
func (staticSubscription) Close()                                  {}

// podLike and nodeLike are two object types for the factory to tell apart.
type podLike struct{ metav1.PartialObjectMetadata }
type nodeLike struct{ metav1.PartialObjectMetadata }

func (p *podLike) DeepCopyObject() runtime.Object  { c := *p; return &c }
func (n *nodeLike) DeepCopyObject() runtime.Object { c := *n; return &c }

// realInformer makes a real informer of an empty collection.
func realInformer(name string) NewInformerFunc {
	return func(c InformerConfig) cache.SharedIndexInformer {
		srv := cachetest.NewServer(&metav1.PartialObjectMetadataList{})
		return cache.NewSharedIndexInformerWithOptions(srv, &metav1.PartialObjectMetadata{}, cache.SharedIndexInformerOptions{
			ObjectDescription: name + "/" + c.Namespace,
		})
	}
}

// WithShard gives every informer the factory's source, each namespace's
// of a multi-namespace informer and metadata-only informers included;
// ByObject.Shard replaces it for one type.
func TestWithShardGivesEveryInformerItsSource(t *testing.T) {
	factorySrc, podSrc := &recordingSource{name: "factory"}, &recordingSource{name: "pods"}
	f := New(WithShard(factorySrc), WithNamespaces("a", "b"),
		WithByObject(&podLike{}, ByObject{Shard: podSrc}))
	f.InformerFor(&podLike{}, realInformer("pods"))
	f.InformerFor(&nodeLike{}, realInformer("nodes"))
	f.MetadataInformerFor(&metadataClient{}, schema.GroupVersionResource{Version: "v1", Resource: "things"}, false)
	ctx, cancel := context.WithCancel(context.Background())
	defer f.Shutdown()
	defer cancel()
	f.Start(ctx)
	syncCtx, stop := context.WithTimeout(ctx, 10*time.Second)
	defer stop()
	if res := f.WaitForCacheSync(syncCtx); res.Err != nil {
		t.Fatal(res.Err)
	}
	factorySrc.mu.Lock()
	defer factorySrc.mu.Unlock()
	got := slices.Sorted(slices.Values(factorySrc.subscribers))
	// nodes in namespaces a and b, and the metadata-only informer.
	if len(got) != 3 || !strings.Contains(got[0], "things") || got[1] != "nodes/a" || got[2] != "nodes/b" {
		t.Errorf("the factory's source has subscribers %q, want nodes/a, nodes/b and the metadata-only informer", got)
	}
	if n := podSrc.count(); n != 2 {
		t.Errorf("the pods' source has %d subscribers, want 2 (namespaces a and b)", n)
	}
}

// A NewInformerFunc whose informer cannot hold a shard is a misuse the
// factory refuses loudly, naming the informer's type, rather than caching
// the whole collection where a shard was asked for.
func TestWithShardRefusesAnInformerThatCannotHoldAShard(t *testing.T) {
	f := New(WithShard(&recordingSource{}))
	defer f.Shutdown()
	defer func() {
		msg, _ := recover().(string)
		if !strings.Contains(msg, "*factory.fakeInformer") || !strings.Contains(msg, "cannot hold a shard") {
			t.Errorf("panic %q, want one naming *factory.fakeInformer and saying it cannot hold a shard", msg)
		}
	}()
	f.InformerFor(&podLike{}, func(c InformerConfig) cache.SharedIndexInformer { return newFakeInformer(c) })
	t.Error("InformerFor returned")
}
