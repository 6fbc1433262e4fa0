package ring

import (
	"context"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	coordinationv1client "k8s.io/client-go/kubernetes/typed/coordination/v1"

	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/factory"
)

// newLeaseFactory returns a factory of informer-gen's runtime whose Lease
// informer watches the Leases of ring in namespace: the ring's membership.
// Its reflector retries a failed list or watch every [renewPeriod/2,
// renewPeriod), as often as the replica writes its Lease, instead of
// backing off further and further: after an outage of the API server,
// every member's view of the ring (and with it every claim, so every
// object's owner) waits for that retry, not for a back-off grown during
// the outage.
func newLeaseFactory(client coordinationv1client.LeasesGetter, namespace, ring string, renewPeriod time.Duration) (*factory.Shared, cache.SharedIndexInformer) {
	backoff := wait.Backoff{Duration: renewPeriod / 2, Factor: 1, Jitter: 1, Cap: renewPeriod}
	selector := labels.Set{RingLabel: ring}.String()
	// Leases are small: keeping their managedFields costs little, and no
	// transform then writes to the objects the client hands over.
	f := factory.New(factory.WithNamespace(namespace), factory.WithManagedFields(&coordinationv1.Lease{}),
		factory.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = selector }))
	inf := f.InformerFor(&coordinationv1.Lease{}, func(c factory.InformerConfig) cache.SharedIndexInformer {
		leases := client.Leases(c.Namespace)
		lw := &cache.ListWatch{
			ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
				c.TweakListOptions(&o)
				return leases.List(ctx, o)
			},
			WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
				c.TweakListOptions(&o)
				return leases.Watch(ctx, o)
			},
		}
		return cache.NewSharedIndexInformerWithOptions(lw, &coordinationv1.Lease{}, cache.SharedIndexInformerOptions{
			ResyncPeriod: c.ResyncPeriod, UseWatchList: c.UseWatchList, Compact: c.Compact,
			ObjectDescription: "ring " + ring + " leases",
			Backoff:           &backoff,
		})
	})
	return f, inf
}

// leasesOf is the Leases in inf's cache.
func leasesOf(inf cache.SharedIndexInformer) []*coordinationv1.Lease {
	objs := inf.GetStore().List()
	out := make([]*coordinationv1.Lease, 0, len(objs))
	for _, o := range objs {
		if l, ok := o.(*coordinationv1.Lease); ok {
			out = append(out, l)
		}
	}
	return out
}

// pokeHandler calls poke on every change of the ring's Leases.
func pokeHandler(poke func()) cache.ResourceEventHandlerFuncs {
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { poke() },
		UpdateFunc: func(any, any) { poke() },
		DeleteFunc: func(any) { poke() },
	}
}
