package factory

import (
	"reflect"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// Option configures a Shared factory.
type Option func(*config)

type config struct {
	namespaces    []string // empty: every namespace
	tweak         func(*metav1.ListOptions)
	defaultResync time.Duration
	resyncByType  map[reflect.Type]time.Duration
	transform     cache.TransformFunc
	// keepManagedFields keeps managedFields for every type;
	// keepManagedFieldsOf for some.
	keepManagedFields   bool
	keepManagedFieldsOf map[reflect.Type]bool
	// byObject holds per-type scopes (WithByObject).
	byObject map[reflect.Type]ByObject
	// noWatchList lists initial lists in pages instead of streaming them
	// (WithoutWatchList); the zero value streams.
	noWatchList bool
	// failFastSync stops WaitForCacheSync at the first 403 or 404
	// (WithFailFastSync).
	failFastSync bool
	// shard is every informer's shard source (WithShard); nil: whole
	// collections.
	shard cache.ShardSource
	// noCompaction keeps cached objects as decoded (WithoutCompaction).
	noCompaction bool
	// noGeneratedDecoders decodes through the typed clients
	// (WithoutGeneratedDecoders).
	noGeneratedDecoders bool
}

// WithoutGeneratedDecoders makes the factory's informers decode what
// they list and watch through the clientset's typed clients, as
// client-go's do, instead of the JSON decoders informer-gen generates
// (by default; package runtime/jsonwatch). Informers generated without
// decoders (--json-decoders=false) decode through the typed clients
// anyway.
func WithoutGeneratedDecoders() Option {
	return func(c *config) { c.noGeneratedDecoders = true }
}

// WithoutCompaction turns off compaction of cached objects for every
// informer of the factory: objects are cached as decoded, each with its own
// strings, maps and slices. By default a factory's informers compact what
// they cache (cache.SharedIndexInformerOptions.Compact, package
// runtime/compact): strings are interned and the parts that repeat across
// objects (resource maps, env, probes, labels, ...) are shared, one
// canonical copy per distinct value. Cached objects are equal to decoded
// ones; sharing only matters to code that mutates cached objects, which
// the informer contract forbids (in test binaries the cache mutation
// detector is on while compaction is, and names such code).
// ByObject.DisableCompaction does it for one type.
func WithoutCompaction() Option {
	return func(c *config) { c.noCompaction = true }
}

// compactionFor reports whether the informers of type t compact the
// objects they cache.
func (c *config) compactionFor(t reflect.Type) bool {
	return !c.noCompaction && !c.byObject[t].DisableCompaction
}

// WithWatchList makes the factory's informers stream their initial lists
// and relists over one watch (sendInitialEvents, the protocol client-go
// v0.37 uses by default) instead of paged LIST requests. It is the
// default: the option exists for code written when it was not, and to undo
// an earlier WithoutWatchList (the last of the two wins).
//
// A server that does not support watch lists gets a LIST. Clients that
// cannot stream, such as client-go's fake clientsets (those that say so
// with IsWatchListSemanticsUnSupported and the older ones that do not) and
// hand-built ListWatches whose watch ignores sendInitialEvents, get a LIST
// at once or after a short grace (see
// cache.SharedIndexInformerOptions.UseWatchList).
// Against a real kube-apiserver with 50,000 Pods the factory's defaults
// (streamed lists, compaction) synced in 0.87x client-go's time, 0.72x
// without compaction (docs/benchmarks.md).
func WithWatchList() Option {
	return func(c *config) { c.noWatchList = false }
}

// WithoutWatchList makes the factory's informers list in pages (LIST with
// limit and continue) instead of streaming their initial lists over a
// watch, for servers or proxies that accept sendInitialEvents but do not
// stream correctly. ByObject.DisableWatchList does it for one type.
func WithoutWatchList() Option {
	return func(c *config) { c.noWatchList = true }
}

// watchListFor reports whether the informers of type t stream their
// initial lists.
func (c *config) watchListFor(t reflect.Type) bool {
	return !c.noWatchList && !c.byObject[t].DisableWatchList
}

// WithFailFastSync makes WaitForCacheSync return at once, without
// waiting for its context to end, when an informer's list or watch is
// refused in a way retrying does not heal: the server does not serve the
// resource (404: a CRD not installed, an API version not enabled) or the
// client may not list or watch it (403: RBAC). The result's Err is then
// that failure (a *cache.InformerSyncError naming the resource and
// wrapping the API error). The informer itself goes on retrying, as it
// does without the option, so that it syncs once the CRD or the
// permission is there. The wait hears of failures as the informers record
// them (cache.SyncErrorNotifier, which this runtime's informers
// implement); of an informer that only reports them
// (cache.SyncErrorReporter), a failure counts when the wait starts.
//
// Without it, WaitForCacheSync waits for its context, as client-go's
// does, and reports the same failures in SyncResult.Errors.
func WithFailFastSync() Option {
	return func(c *config) { c.failFastSync = true }
}

// WithShard makes every informer of the factory, metadata-only informers
// included, hold only a shard of its collection: the shard src gives it,
// which may change while it runs. Lists, watch lists and watches carry the
// shard's selector (server-side sharded list and watch, Kubernetes 1.36+
// with the ShardedListAndWatch feature gate), and every object outside the
// shard is dropped before it reaches the cache and the handlers, so the
// cache holds exactly the shard also when the server ignored the
// selector. The package github.com/informer-gen/informer-gen/shard makes
// sources (shard.Static, shard.Dynamic). ByObject.Shard sets or replaces
// it for one type. Informers made by a NewInformerFunc must implement
// cache.ShardSetter (those of runtime/cache, and so generated ones, do):
// InformerFor panics, naming the informer's type, for one that does not,
// rather than let it cache the whole collection.
func WithShard(src cache.ShardSource) Option {
	return func(c *config) { c.shard = src }
}

// shardFor returns the shard source of type t's informers; nil for none.
func (c *config) shardFor(t reflect.Type) cache.ShardSource {
	if src := c.byObject[t].Shard; src != nil {
		return src
	}
	return c.shard
}

// WithNamespace limits every informer of the factory to one namespace.
// metav1.NamespaceAll ("") means every namespace, the default.
func WithNamespace(namespace string) Option {
	return func(c *config) {
		c.namespaces = nil
		if namespace != metav1.NamespaceAll {
			c.namespaces = []string{namespace}
		}
	}
}

// WithNamespaces limits every informer of the factory to a set of
// namespaces: the factory runs one informer per namespace and presents them
// as one informer whose cache is the union, so listers and handlers see every
// listed namespace at once. Duplicates are ignored; an empty set or one that
// contains metav1.NamespaceAll means every namespace.
func WithNamespaces(namespaces ...string) Option {
	return func(c *config) { c.namespaces = normalizeNamespaces(namespaces) }
}

// WithTweakListOptions sets a function that edits the ListOptions of every
// list and watch the factory's informers make (label or field selectors,
// typically).
func WithTweakListOptions(tweak func(*metav1.ListOptions)) Option {
	return func(c *config) { c.tweak = tweak }
}

// WithResyncPeriod sets the default resync period of the factory's
// informers; 0 (the default) turns periodic resync off.
func WithResyncPeriod(period time.Duration) Option {
	return func(c *config) { c.defaultResync = period }
}

// WithCustomResyncConfig sets per-type resync periods, keyed by an example
// object of each type.
func WithCustomResyncConfig(resyncConfig map[metav1.Object]time.Duration) Option {
	return func(c *config) {
		for obj, period := range resyncConfig {
			c.resyncByType[reflect.TypeOf(obj)] = period
		}
	}
}

// WithTransform sets the TransformFunc of every informer the factory makes.
// It runs after StripManagedFields, unless WithManagedFields keeps them.
func WithTransform(transform cache.TransformFunc) Option {
	return func(c *config) { c.transform = transform }
}

// WithManagedFields keeps metadata.managedFields in the objects the
// factory's informers cache and hand to handlers: for every type when
// called without arguments, otherwise for the Go types of the example
// objects given. By default a factory drops them (StripManagedFields), as
// they are often most of an object's size. Controllers that call
// applyconfigurations' Extract functions on cached objects read
// managedFields and need this option for those types.
func WithManagedFields(objs ...runtime.Object) Option {
	return func(c *config) {
		if len(objs) == 0 {
			c.keepManagedFields = true
			return
		}
		for _, obj := range objs {
			c.keepManagedFieldsOf[reflect.TypeOf(obj)] = true
		}
	}
}

// transformFor returns the TransformFunc of type t's informers: managedFields
// stripped unless kept, then the user's transform. Nil when there is
// nothing to do.
func (c *config) transformFor(t reflect.Type) cache.TransformFunc {
	scope := c.byObject[t]
	user := c.transform
	if scope.Transform != nil {
		user = scope.Transform
	}
	strip := !c.keepManagedFields && !c.keepManagedFieldsOf[t] && !scope.KeepManagedFields
	switch {
	case !strip:
		return user
	case user == nil:
		// cache's own, which the informer recognizes: its decoders still
		// hand objects over compact.
		return cache.StripManagedFields
	}
	return func(obj any) (any, error) {
		obj, _ = cache.StripManagedFields(obj)
		return user(obj)
	}
}

// stripsManagedFields reports whether some type may have its managedFields
// stripped.
func (c *config) stripsManagedFields() bool { return !c.keepManagedFields }
