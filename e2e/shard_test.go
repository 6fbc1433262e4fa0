package e2e

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/informer-gen/informer-gen/e2e/internal/cluster"
	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	"github.com/informer-gen/informer-gen/examples/crd/controller"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/clientset/versioned"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions"
	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/factory"
	"github.com/informer-gen/informer-gen/shard"
)

// shardedObjects is how many Widgets the sharding tests spread over their
// replicas.
const shardedObjects = 2000

// Sharded informers against a kube-apiserver with ShardedListAndWatch on:
// the server filters lists, watch lists and watches.
func TestShardedInformersWithTheFeatureGateOn(t *testing.T) {
	if shared == nil {
		t.Skip("needs a kube-apiserver (skipped with -short)")
	}
	c := ownCluster(t, cluster.Options{FeatureGates: []string{"ShardedListAndWatch=true"}})
	shardedInformerSuite(t, c, true)
}

// The same with the gate off: the server ignores the selector, and the
// informers filter the collection themselves.
func TestShardedInformersWithTheFeatureGateOff(t *testing.T) {
	shardedInformerSuite(t, sharedCluster(t), false)
}

func shardedInformerSuite(t *testing.T, c *cluster.Cluster, gateOn bool) {
	ns := fmt.Sprintf("shard-gate-%t", gateOn)
	cfg := c.AdminConfig()
	createNamespaces(t, cfg, ns)
	createWidgets(t, clientset(t, cfg), ns, "w", shardedObjects)
	t.Run("server applies the selector only with the gate on", func(t *testing.T) {
		checkServerSideSelection(t, cfg, ns, gateOn)
	})
	t.Run("three static shards partition the collection", func(t *testing.T) {
		staticShardsPartition(t, cfg, ns, gateOn)
	})
	t.Run("reshard one informer: widen, then narrow", func(t *testing.T) {
		reshardOneInformer(t, cfg, ns)
	})
	t.Run("three sharded controllers reconcile every Widget once", func(t *testing.T) {
		shardedControllers(t, cfg, ns+"-controllers")
	})
}

// shardedControllers runs three replicas of the example controller, each
// with a static third (the controller's --shard i/3): together they bring
// every Widget's status in line, and each writes the statuses of its
// third only, each once.
func shardedControllers(t *testing.T, cfg *rest.Config, ns string) {
	const widgets = 300
	cs := clientset(t, cfg)
	createNamespaces(t, cfg, ns)
	createWidgets(t, cs, ns, "c", widgets)
	var controllers []*controller.Controller
	var parts []shard.Selector
	for i := range 3 {
		part, err := shard.Part(shard.UID, i, 3)
		if err != nil {
			t.Fatal(err)
		}
		client := clientset(t, cfg)
		f := externalversions.NewSharedInformerFactoryWithOptions(client, 0, externalversions.WithNamespace(ns),
			externalversions.WithByObject(&stablev1.Widget{}, factory.ByObject{Shard: shard.Static(part)}))
		c := controller.New(client, f, controller.Options{Name: fmt.Sprintf("shard-%d-of-3", i)})
		ctx, cancel := context.WithCancel(context.Background())
		f.StartWithContext(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			if err := c.Run(ctx, 2); err != nil && ctx.Err() == nil {
				t.Errorf("controller %d: %v", i, err)
			}
		}()
		t.Cleanup(func() {
			cancel()
			<-done
			f.Shutdown()
		})
		controllers, parts = append(controllers, c), append(parts, part)
	}
	waitStatusesConverged(t, cs, []string{ns}, widgets)
	total := 0
	for i, c := range controllers {
		st := c.Stats()
		want := len(serverKeys(t, cs, ns, parts[i]))
		t.Logf("controller %d: %+v, %d Widgets in its third", i, st, want)
		if st.StatusUpdates != uint64(want) || st.Conflicts != 0 {
			t.Errorf("controller %d wrote %d statuses with %d conflicts, want %d (its third) and none", i, st.StatusUpdates, st.Conflicts, want)
		}
		total += int(st.StatusUpdates)
	}
	if total != widgets {
		t.Errorf("the controllers wrote %d statuses, want one per Widget: %d", total, widgets)
	}
}

// createWidgets creates n Widgets named prefix-i in ns, a few at a time.
func createWidgets(t *testing.T, cs versioned.Interface, ns, prefix string, n int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	next := atomic.Int64{}
	for range 8 {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(n); i = next.Add(1) - 1 {
				_, err := cs.StableV1().Widgets(ns).Create(context.Background(), &stablev1.Widget{
					ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", prefix, i)},
					Spec:       stablev1.WidgetSpec{Size: 1, Color: "red"},
				}, metav1.CreateOptions{})
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("creating widgets in %s: %v", ns, err)
	}
}

// serverKeys lists ns's Widgets and returns the keys of those in s (every
// one when s is nil).
func serverKeys(t *testing.T, cs versioned.Interface, ns string, s cache.Shard) []string {
	t.Helper()
	list, err := cs.StableV1().Widgets(ns).List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for i := range list.Items {
		if s == nil || s.Contains(&list.Items[i]) {
			keys = append(keys, ns+"/"+list.Items[i].Name)
		}
	}
	slices.Sort(keys)
	return keys
}

func storeKeys(inf cache.SharedIndexInformer) []string {
	keys := inf.GetStore().ListKeys()
	slices.Sort(keys)
	return keys
}

// checkServerSideSelection lists with a shard selector directly: with the
// gate on the server returns only the shard, and echoes the selector in
// ShardInfo for built-in types (ConfigMaps); kube-apiserver 1.36 does not
// echo it for custom resources (its unstructured lists cannot carry it),
// though it filters them. With the gate off it returns everything.
func checkServerSideSelection(t *testing.T, cfg *rest.Config, ns string, gateOn bool) {
	cs := clientset(t, cfg)
	part, err := shard.Part(shard.UID, 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	var opts metav1.ListOptions
	part.ApplyTo(&opts)
	list, err := cs.StableV1().Widgets(ns).List(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	want := shardedObjects
	if gateOn {
		want = len(serverKeys(t, cs, ns, part))
	}
	if len(list.Items) != want {
		t.Errorf("LIST of Widgets with %q returned %d of %d, want %d (gate on: %t)", opts.ShardSelector, len(list.Items), shardedObjects, want, gateOn)
	}
	t.Logf("LIST of Widgets with a shard selector: %d of %d items, ShardInfo %v", len(list.Items), shardedObjects, list.ShardInfo)

	kc := kubernetes.NewForConfigOrDie(cfg)
	for i := range 30 {
		if _, err := kc.CoreV1().ConfigMaps(ns).Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%d", i)}}, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
	}
	cms, err := kc.CoreV1().ConfigMaps(ns).List(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	echoed := cms.ShardInfo != nil && cms.ShardInfo.Selector == part.String()
	if echoed != gateOn || !part.ServerApplied(cms) == gateOn {
		t.Errorf("LIST of ConfigMaps with a shard selector: ShardInfo %v, want the selector echoed only with the gate on (%t)", cms.ShardInfo, gateOn)
	}
	for i := range cms.Items {
		if gateOn && !part.Contains(&cms.Items[i]) {
			t.Errorf("the server sent ConfigMap %s, outside the shard", cms.Items[i].Name)
		}
	}
}

// byteCounter counts the response bytes a client receives.
type byteCounter struct{ n atomic.Int64 }

func (b *byteCounter) wrap(cfg *rest.Config) *rest.Config {
	cfg = rest.CopyConfig(cfg)
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
			resp, err := rt.RoundTrip(req)
			if err == nil {
				resp.Body = &countingBody{ReadCloser: resp.Body, n: &b.n}
			}
			return resp, err
		})
	})
	return cfg
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// replica is one sharded informer stack with its own client.
type replica struct {
	factory  externalversions.SharedInformerFactory
	informer cache.SharedIndexInformer
	received *byteCounter
	handled  *keyEvents
}

// newReplica starts a factory of its own client whose Widget informer (in
// ns) holds the shard of src; src nil holds the whole collection.
func newReplica(t *testing.T, cfg *rest.Config, ns string, src cache.ShardSource) *replica {
	t.Helper()
	r := &replica{received: &byteCounter{}, handled: newKeyEvents()}
	opts := []externalversions.SharedInformerOption{externalversions.WithNamespace(ns)}
	if src != nil {
		opts = append(opts, externalversions.WithByObject(&stablev1.Widget{}, factory.ByObject{Shard: src}))
	}
	r.factory = externalversions.NewSharedInformerFactoryWithOptions(clientset(t, r.received.wrap(cfg)), 0, opts...)
	r.informer = r.factory.Stable().V1().Widgets().Informer()
	if _, err := r.informer.AddEventHandler(r.handled.handler()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.factory.StartWithContext(ctx)
	t.Cleanup(func() {
		cancel()
		r.factory.Shutdown()
	})
	syncCtx, stop := context.WithTimeout(t.Context(), time.Minute)
	defer stop()
	if res := r.factory.WaitForCacheSyncWithContext(syncCtx); res.Err != nil {
		t.Fatalf("sync: %v", res.Err)
	}
	return r
}

// keyEvents counts, per key, the adds, deletes and tombstones a handler got.
type keyEvents struct {
	mu                        sync.Mutex
	adds, deletes, tombstones map[string]int
	added                     map[string]metav1.Object // the last object added under each key
}

func newKeyEvents() *keyEvents {
	return &keyEvents{adds: map[string]int{}, deletes: map[string]int{}, tombstones: map[string]int{}, added: map[string]metav1.Object{}}
}

func (e *keyEvents) handler() cache.ResourceEventHandler {
	key := func(obj any) string {
		k, _ := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
		return k
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.adds[key(obj)]++
			if m, ok := obj.(metav1.Object); ok {
				e.added[key(obj)] = m
			}
		},
		DeleteFunc: func(obj any) {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.deletes[key(obj)]++
			if _, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				e.tombstones[key(obj)]++
			}
		},
	}
}

func (e *keyEvents) snapshot() (adds, deletes, tombstones map[string]int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return maps.Clone(e.adds), maps.Clone(e.deletes), maps.Clone(e.tombstones)
}

// waitKeys waits until inf holds exactly want.
func waitKeys(t *testing.T, what string, inf cache.SharedIndexInformer, want []string) {
	t.Helper()
	err := wait.PollUntilContextTimeout(t.Context(), 20*time.Millisecond, time.Minute, true, func(context.Context) (bool, error) {
		return slices.Equal(storeKeys(inf), want), nil
	})
	if err != nil {
		got := storeKeys(inf)
		t.Fatalf("%s: the cache holds %d objects, want %d: %v", what, len(got), len(want), err)
	}
}

// Three replicas with static shards: every object in exactly one cache,
// the union the server's collection, also after creates and deletes;
// with the gate on each replica receives only about its third.
func staticShardsPartition(t *testing.T, cfg *rest.Config, ns string, gateOn bool) {
	cs := clientset(t, cfg)
	whole := newReplica(t, cfg, ns, nil)
	var replicas []*replica
	var parts []shard.Selector
	for i := range 3 {
		p, err := shard.Part(shard.UID, i, 3)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, p)
		replicas = append(replicas, newReplica(t, cfg, ns, shard.Static(p)))
	}
	checkPartition(t, "after sync", cs, ns, replicas, parts)
	checkReceived(t, whole, replicas, gateOn)
	createWidgets(t, cs, ns, "later", 150)
	for i := range 150 {
		if err := cs.StableV1().Widgets(ns).Delete(t.Context(), fmt.Sprintf("w-%d", i), metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	checkPartition(t, "after 150 creates and 150 deletes", cs, ns, replicas, parts)
	for i, r := range replicas {
		r.handled.mu.Lock()
		for k, obj := range r.handled.added {
			if !parts[i].Contains(obj) {
				t.Errorf("replica %d's handler was told of %s, outside its shard", i, k)
			}
		}
		r.handled.mu.Unlock()
	}
}

// checkPartition waits until each replica holds exactly the server's
// objects of its part, and checks that together they hold each object
// of the collection once.
func checkPartition(t *testing.T, when string, cs versioned.Interface, ns string, replicas []*replica, parts []shard.Selector) {
	t.Helper()
	seen := map[string]int{}
	for i, r := range replicas {
		waitKeys(t, fmt.Sprintf("%s: replica %d", when, i), r.informer, serverKeys(t, cs, ns, parts[i]))
		for _, k := range storeKeys(r.informer) {
			seen[k]++
		}
	}
	all := serverKeys(t, cs, ns, nil)
	if got := slices.Sorted(maps.Keys(seen)); !slices.Equal(got, all) {
		t.Errorf("%s: the union of the caches has %d objects, the server %d", when, len(got), len(all))
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("%s: %s is in %d caches", when, k, n)
		}
	}
}

// checkReceived compares the bytes each replica received with those of an
// unsharded informer: about a third with server-side selection, all of
// them without.
func checkReceived(t *testing.T, whole *replica, replicas []*replica, gateOn bool) {
	t.Helper()
	for i, r := range replicas {
		ratio := float64(r.received.n.Load()) / float64(whole.received.n.Load())
		t.Logf("replica %d received %.2fx the bytes of an unsharded informer (gate on: %t)", i, ratio, gateOn)
		if gateOn && ratio > 0.6 {
			t.Errorf("replica %d received %.2fx the bytes of an unsharded informer; with server-side selection, want about 1/3", i, ratio)
		}
		if !gateOn && ratio < 0.9 {
			t.Errorf("replica %d received %.2fx the bytes of an unsharded informer; the server ignores the selector, so want about 1x", i, ratio)
		}
	}
}

// One informer with a Dynamic source: widening to a second third gives
// adds of that third only; narrowing to it gives tombstones of the first;
// each rollout completes with the cache holding exactly the new ranges.
func reshardOneInformer(t *testing.T, cfg *rest.Config, ns string) {
	cs := clientset(t, cfg)
	first, _ := shard.Part(shard.UID, 0, 3)
	second, _ := shard.Part(shard.UID, 1, 3)
	both, err := shard.NewSelector(shard.UID, append(first.Ranges(), second.Ranges()...)...)
	if err != nil {
		t.Fatal(err)
	}
	src := shard.NewDynamic(first)
	r := newReplica(t, cfg, ns, src)
	waitKeys(t, "first third", r.informer, serverKeys(t, cs, ns, first))

	if err := src.Set(both).Wait(t.Context()); err != nil {
		t.Fatalf("widening: %v", err)
	}
	if got, want := storeKeys(r.informer), serverKeys(t, cs, ns, both); !slices.Equal(got, want) {
		t.Fatalf("after the widening rollout the cache holds %d objects, want the %d of two thirds", len(got), len(want))
	}
	firstKeys, secondKeys := serverKeys(t, cs, ns, first), serverKeys(t, cs, ns, second)
	if err := wait.PollUntilContextTimeout(t.Context(), 20*time.Millisecond, time.Minute, true, func(context.Context) (bool, error) {
		adds, _, _ := r.handled.snapshot()
		return len(adds) == len(firstKeys)+len(secondKeys), nil
	}); err != nil {
		t.Fatalf("handler adds after widening: %v", err)
	}
	adds, deletes, _ := r.handled.snapshot()
	for _, k := range secondKeys {
		if adds[k] != 1 {
			t.Errorf("widening: %s of the second third added %d times, want 1", k, adds[k])
		}
	}
	if len(deletes) != 0 {
		t.Errorf("widening deleted %d objects, want none", len(deletes))
	}

	if err := src.Set(second).Wait(t.Context()); err != nil {
		t.Fatalf("narrowing: %v", err)
	}
	if got, want := storeKeys(r.informer), serverKeys(t, cs, ns, second); !slices.Equal(got, want) {
		t.Fatalf("after the narrowing rollout the cache holds %d objects, want the %d of the second third", len(got), len(want))
	}
	if err := wait.PollUntilContextTimeout(t.Context(), 20*time.Millisecond, time.Minute, true, func(context.Context) (bool, error) {
		_, deletes, _ := r.handled.snapshot()
		return len(deletes) == len(firstKeys), nil
	}); err != nil {
		t.Fatalf("handler deletes after narrowing: %v", err)
	}
	_, _, tombstones := r.handled.snapshot()
	if got := slices.Sorted(maps.Keys(tombstones)); !slices.Equal(got, firstKeys) {
		t.Errorf("narrowing: tombstones for %d objects, want the %d of the first third", len(got), len(firstKeys))
	}
}
