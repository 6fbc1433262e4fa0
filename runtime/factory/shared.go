package factory

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// InformerConfig is what a Shared factory asks of a NewInformerFunc: the
// informer of one type for one namespace.
type InformerConfig struct {
	// Namespace to list and watch; metav1.NamespaceAll for every namespace.
	Namespace string
	// ResyncPeriod is the informer's default handler resync period.
	ResyncPeriod time.Duration
	// TweakListOptions edits every list and watch request; may be nil.
	TweakListOptions func(*metav1.ListOptions)
	// UseWatchList asks for the initial list to be streamed over a watch
	// (cache.SharedIndexInformerOptions.UseWatchList). The factory sets it
	// unless WithoutWatchList or ByObject.DisableWatchList turn it off.
	UseWatchList bool
	// DisableGeneratedDecoders makes the informer decode through the typed
	// client instead of its generated JSON decoders, when it has any
	// (WithoutGeneratedDecoders).
	DisableGeneratedDecoders bool
	// Compact asks for an informer that compacts what it caches
	// (cache.SharedIndexInformerOptions.Compact). The factory sets it
	// unless WithoutCompaction or ByObject.DisableCompaction turn it off;
	// a NewInformerFunc passes it to the informer's constructor, as it
	// does the settings above: the factory does not change an informer's
	// compaction after making it.
	Compact bool
	// Primary is true for exactly one informer of each type: the only one,
	// or the first namespace's when the factory watches several. An
	// identity that must be unique per type, such as the resource
	// registered under a cache.InformerName for metrics, belongs to it.
	Primary bool
}

// NewInformerFunc makes a new, not yet running informer for config.
// Generated informers supply one per type.
type NewInformerFunc func(config InformerConfig) cache.SharedIndexInformer

// Shared hands out one informer per object type and runs them together.
// Generated factory.go files wrap it with typed accessors.
//
// All methods are safe for concurrent use. Informers requested after Start
// run at the next Start call, which may be made any number of times.
type Shared struct {
	config config

	// mu guards the fields below but wg.
	mu        sync.Mutex
	informers map[informerKey]cache.SharedIndexInformer
	// ctx is cancelled by Shutdown; every informer runs under it.
	ctx          context.Context
	cancel       context.CancelFunc
	wg           sync.WaitGroup
	shuttingDown bool
	// loggedManagedFields is set once Start said that managedFields are
	// stripped.
	loggedManagedFields bool
	// running holds how to stop each started informer (a key is started
	// when it is here), for RemoveInformer.
	running map[informerKey]runningInformer
}

// informerKey identifies one informer of a factory: a typed informer by the
// Go type of its objects, a metadata-only informer by its resource (typ
// nil), an informer of ResourceInformerFor by both.
type informerKey struct {
	typ      reflect.Type
	resource schema.GroupVersionResource // set for metadata-only and ResourceInformerFor informers
}

// runningInformer stops one started informer and tells when it stopped.
type runningInformer struct {
	cancel context.CancelFunc
	done   <-chan struct{}
}

// New returns a factory configured by opts.
func New(opts ...Option) *Shared {
	s := &Shared{
		config:    config{resyncByType: map[reflect.Type]time.Duration{}, keepManagedFieldsOf: map[reflect.Type]bool{}, byObject: map[reflect.Type]ByObject{}},
		informers: map[informerKey]cache.SharedIndexInformer{},
		running:   map[informerKey]runningInformer{},
	}
	for _, opt := range opts {
		opt(&s.config)
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	return s
}

// InformerFor returns the informer of obj's Go type, a namespaced type,
// making it with newInformer on first request. With several namespaces
// configured, newInformer is called once per namespace and the result is one
// informer over all of them.
func (s *Shared) InformerFor(obj runtime.Object, newInformer NewInformerFunc) cache.SharedIndexInformer {
	return s.informerFor(obj, newInformer, s.config.namespacesFor(reflect.TypeOf(obj)))
}

// ClusterInformerFor is InformerFor for cluster-scoped types and for
// informers that choose their namespace themselves: newInformer is called
// once, with metav1.NamespaceAll, whatever namespaces the factory has.
func (s *Shared) ClusterInformerFor(obj runtime.Object, newInformer NewInformerFunc) cache.SharedIndexInformer {
	return s.informerFor(obj, newInformer, nil)
}

func (s *Shared) informerFor(obj runtime.Object, newInformer NewInformerFunc, namespaces []string) cache.SharedIndexInformer {
	return s.informerOf(informerKey{typ: reflect.TypeOf(obj)}, newInformer, namespaces)
}

// ResourceInformerFor returns the informer of resource, whose objects are
// of obj's Go type, making it with newInformer on first request: for
// informers that cache one Go type whatever the resource, such as dynamic
// informers of *unstructured.Unstructured. Informers are keyed by obj's
// type and resource together, so each resource has its own.
//
// A namespaced resource's informer watches the factory's namespaces (one
// newInformer call per namespace, as InformerFor); a cluster-scoped one
// (namespaced false) watches all. The options of obj's type apply as they
// do to InformerFor's informers (resync, list-options tweak, transform,
// managedFields, watch lists, WithByObject for obj's type: to every
// resource). WaitForCacheSync reports it under the result's
// SyncedResources and ResourceErrors; RemoveResourceInformer removes it.
//
// Safe for concurrent use. Later calls for the same type and resource
// return the first informer, whatever newInformer they pass.
func (s *Shared) ResourceInformerFor(obj runtime.Object, resource schema.GroupVersionResource, namespaced bool, newInformer NewInformerFunc) cache.SharedIndexInformer {
	t := reflect.TypeOf(obj)
	var namespaces []string
	if namespaced {
		namespaces = s.config.namespacesFor(t)
	}
	return s.informerOf(informerKey{typ: t, resource: resource}, newInformer, namespaces)
}

// RemoveResourceInformer is RemoveInformer for the informer of obj's type
// and resource made by ResourceInformerFor.
func (s *Shared) RemoveResourceInformer(ctx context.Context, obj runtime.Object, resource schema.GroupVersionResource) (bool, error) {
	return s.remove(ctx, informerKey{typ: reflect.TypeOf(obj), resource: resource})
}

// informerOf returns the informer of key, whose objects are of key.typ,
// made with the settings of that type.
func (s *Shared) informerOf(key informerKey, newInformer NewInformerFunc, namespaces []string) cache.SharedIndexInformer {
	t := key.typ
	return s.makeOnce(key, newInformer, namespaces, informerSettings{
		resync:    s.config.resyncFor(t),
		tweak:     s.config.tweakFor(t),
		transform: s.config.transformFor(t),
		watchList: s.config.watchListFor(t),
		shard:     s.config.shardFor(t),
		compact:   s.config.compactionFor(t),
	})
}

// informerSettings are the per-type settings makeOnce gives the informers
// it makes.
type informerSettings struct {
	resync    time.Duration
	tweak     func(*metav1.ListOptions)
	transform cache.TransformFunc
	watchList bool
	shard     cache.ShardSource
	compact   bool // compaction of cached objects (WithoutCompaction)
}

// makeOnce returns the informer of key, making it on first request with
// newInformer, once per namespace when there are several.
func (s *Shared) makeOnce(key informerKey, newInformer NewInformerFunc, namespaces []string, set informerSettings) cache.SharedIndexInformer {
	s.mu.Lock()
	defer s.mu.Unlock()
	if inf, ok := s.informers[key]; ok {
		return inf
	}
	newOne := func(namespace string, primary bool) cache.SharedIndexInformer {
		inf := newInformer(InformerConfig{
			Namespace: namespace, ResyncPeriod: set.resync, TweakListOptions: set.tweak, UseWatchList: set.watchList,
			DisableGeneratedDecoders: s.config.noGeneratedDecoders, Compact: set.compact, Primary: primary,
		})
		if set.transform != nil {
			// A fresh informer has not started, so this cannot fail.
			_ = inf.SetTransform(set.transform)
		}
		if set.shard != nil {
			if err := setShard(inf, set.shard); err != nil {
				// A misuse the factory cannot report through InformerFor:
				// an informer that would hold the whole collection where a
				// shard was asked for must not run.
				panic(err.Error())
			}
		}
		return inf
	}
	var inf cache.SharedIndexInformer
	switch len(namespaces) {
	case 0:
		inf = newOne(metav1.NamespaceAll, true)
	case 1:
		inf = newOne(namespaces[0], true)
	default:
		parts := make([]cache.SharedIndexInformer, len(namespaces))
		for i, ns := range namespaces {
			parts[i] = newOne(ns, i == 0)
		}
		inf = newMultiNamespaceInformer(namespaces, parts)
	}
	s.informers[key] = inf
	return inf
}

// setShard gives inf the shard of src, or says why it cannot hold one.
func setShard(inf cache.SharedIndexInformer, src cache.ShardSource) error {
	setter, ok := inf.(cache.ShardSetter)
	if !ok {
		return fmt.Errorf("factory: informer %T cannot hold a shard (it does not implement cache.ShardSetter)", inf)
	}
	return setter.SetShard(src)
}

// Start runs every informer requested so far that is not running yet. They
// run until ctx is done or Shutdown is called. Start does not block.
func (s *Shared) Start(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shuttingDown {
		return
	}
	if !s.loggedManagedFields && s.config.stripsManagedFields() && len(s.informers) > 0 {
		s.loggedManagedFields = true
		klog.FromContext(ctx).Info(managedFieldsLogLine)
	}
	for key, inf := range s.informers {
		if _, started := s.running[key]; started {
			continue
		}
		runCtx, cancel := context.WithCancel(s.ctx)
		stop := context.AfterFunc(ctx, cancel)
		done := make(chan struct{})
		s.running[key] = runningInformer{cancel: cancel, done: done}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer close(done)
			defer stop()
			defer cancel()
			inf.RunWithContext(runCtx)
		}()
	}
}

// WaitForCacheSync waits until every started informer has synced or ctx is
// done, and reports, per object type, whether its informer synced and,
// for those that did not, their last list or watch failure (naming the
// resource: a missing CRD, missing RBAC). When one did not sync, the
// result's Err is context.Cause(ctx); with WithFailFastSync, waiting stops
// at the first 403 or 404 and Err is that failure.
//
// It waits on each informer's HasSyncedChecker and, failing fast, learns
// of failures from informers that implement cache.SyncErrorNotifier:
// nothing polls. Like client-go's, it logs nothing.
func (s *Shared) WaitForCacheSync(ctx context.Context) cache.SyncResult {
	waiting := s.startedInformers()
	waitCtx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	if s.config.failFastSync {
		release := failFast(waiting, stop)
		defer release()
	}
	checkers := make([]cache.DoneChecker, 0, len(waiting))
	for _, inf := range waiting {
		checkers = append(checkers, inf.HasSyncedChecker())
	}
	cache.WaitFor(waitCtx, "", checkers...)

	cause := context.Cause(waitCtx)
	res := cache.SyncResult{Synced: make(map[reflect.Type]bool, len(waiting))}
	for key, inf := range waiting {
		synced := inf.HasSynced()
		if !synced {
			res.Err = cause
		}
		recordSync(&res, key, synced, syncError(inf, synced))
	}
	return res
}

// startedInformers returns the informers Start has run.
func (s *Shared) startedInformers() map[informerKey]cache.SharedIndexInformer {
	s.mu.Lock()
	defer s.mu.Unlock()
	started := make(map[informerKey]cache.SharedIndexInformer, len(s.running))
	for key, inf := range s.informers {
		if _, ok := s.running[key]; ok {
			started[key] = inf
		}
	}
	return started
}

// failFast makes stop end the wait, with the failure as its cause, as
// soon as one of informers has not synced and failed in a way retrying
// does not heal: at once for a failure recorded before the wait, and when
// an informer that is a cache.SyncErrorNotifier records one during it.
// release stops listening.
func failFast(informers map[informerKey]cache.SharedIndexInformer, stop context.CancelCauseFunc) (release func()) {
	var stops []func() bool
	for _, inf := range informers {
		check := func() {
			if err := syncError(inf, inf.HasSynced()); err != nil && unrecoverable(err) {
				stop(err)
			}
		}
		if n, ok := inf.(cache.SyncErrorNotifier); ok {
			stops = append(stops, n.AfterSyncError(func(error) { check() }))
		}
		check() // after subscribing, so no failure falls in between
	}
	return func() {
		for _, stop := range stops {
			stop()
		}
	}
}

// unrecoverable reports whether err, a sync error, is a failure that
// retrying does not heal without someone acting: the server does not
// serve the resource (404), or the client may not list or watch it (403).
func unrecoverable(err error) bool {
	return apierrors.IsNotFound(err) || apierrors.IsForbidden(err)
}

// syncError is inf's last list or watch failure when it has not synced
// and can tell (cache.SyncErrorReporter).
func syncError(inf cache.SharedIndexInformer, synced bool) error {
	r, ok := inf.(cache.SyncErrorReporter)
	if synced || !ok {
		return nil
	}
	return r.SyncError()
}

// recordSync puts whether the informer of key synced, and why not, in res.
func recordSync(res *cache.SyncResult, key informerKey, synced bool, err error) {
	if key.typ != nil && !key.resource.Empty() {
		res.SyncedResources = setResource(res.SyncedResources, key.resource, synced)
		if err != nil {
			res.ResourceErrors = setResource(res.ResourceErrors, key.resource, err)
		}
		return
	}
	if key.typ != nil {
		res.Synced[key.typ] = synced
		if err != nil {
			if res.Errors == nil {
				res.Errors = map[reflect.Type]error{}
			}
			res.Errors[key.typ] = err
		}
		return
	}
	if res.SyncedMetadata == nil {
		res.SyncedMetadata = map[schema.GroupVersionResource]bool{}
	}
	res.SyncedMetadata[key.resource] = synced
	if err != nil {
		if res.MetadataErrors == nil {
			res.MetadataErrors = map[schema.GroupVersionResource]error{}
		}
		res.MetadataErrors[key.resource] = err
	}
}

// Shutdown stops every informer of the factory and waits until all their
// goroutines have ended. Start after Shutdown does nothing. Safe to call
// more than once.
func (s *Shared) Shutdown() {
	s.mu.Lock()
	s.shuttingDown = true
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
}

// RemoveInformer stops the informer of obj's Go type, waits until it has
// stopped (or ctx is done), and forgets it: its cache is dropped with it,
// and the next InformerFor makes a new informer, which the next Start
// runs. It reports whether the factory had such an informer.
//
// Handlers registered on the removed informer get no further
// notifications, and no deletes for the objects it held: they were not
// deleted. Handlers that implement cache.StopHandler are told instead:
// each gets OnStop once, before RemoveInformer returns (unless ctx ended
// first). The informer's IsStopped returns true and AddEventHandler on it
// fails. Code that keeps
// the old informer or its lister keeps reading the last cached state, so
// drop those references too. Safe for concurrent use; removing an
// informer that was never started only forgets it.
func (s *Shared) RemoveInformer(ctx context.Context, obj runtime.Object) (bool, error) {
	return s.remove(ctx, informerKey{typ: reflect.TypeOf(obj)})
}

// remove is RemoveInformer of the informer of key.
func (s *Shared) remove(ctx context.Context, key informerKey) (bool, error) {
	s.mu.Lock()
	_, ok := s.informers[key]
	run, running := s.running[key]
	delete(s.informers, key)
	delete(s.running, key)
	s.mu.Unlock()
	if !running {
		return ok, nil
	}
	run.cancel()
	select {
	case <-run.done:
		return true, nil
	case <-ctx.Done():
		return true, context.Cause(ctx)
	}
}

// setResource sets m[resource] to v, making m when it is nil.
func setResource[V any](m map[schema.GroupVersionResource]V, resource schema.GroupVersionResource, v V) map[schema.GroupVersionResource]V {
	if m == nil {
		m = map[schema.GroupVersionResource]V{}
	}
	m[resource] = v
	return m
}
