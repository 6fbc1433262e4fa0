package factory

import (
	"reflect"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// ByObject scopes the cache of one object type, on top of the factory's
// options (controller-runtime's cache.ByObject is the model). The zero
// value of each field keeps the factory's setting.
type ByObject struct {
	// Namespaces replaces the factory's namespaces (WithNamespace,
	// WithNamespaces) for this type: the informer lists and watches only
	// these. Ignored for cluster-scoped types (ClusterInformerFor).
	Namespaces []string
	// LabelSelector and FieldSelector are added to every list and watch of
	// this type, after the factory's WithTweakListOptions; with a selector
	// already set there, both must match.
	LabelSelector string
	FieldSelector string
	// Transform replaces the factory's WithTransform for this type. It
	// runs after managedFields were stripped, as the factory's does.
	Transform cache.TransformFunc
	// ResyncPeriod replaces the factory's default and custom resync period
	// for this type; 0 keeps them.
	ResyncPeriod time.Duration
	// KeepManagedFields keeps metadata.managedFields in this type's cache,
	// as WithManagedFields(obj) does.
	KeepManagedFields bool
	// DisableWatchList makes this type's informer list in pages instead of
	// streaming its initial list, as WithoutWatchList does for every type.
	DisableWatchList bool
	// Shard replaces the factory's WithShard for this type: its informer
	// holds only the shard this source gives it.
	Shard cache.ShardSource
}

// WithByObject scopes the informer of obj's Go type. A later WithByObject
// for the same type replaces an earlier one.
func WithByObject(obj runtime.Object, scope ByObject) Option {
	return func(c *config) {
		scope.Namespaces = normalizeNamespaces(scope.Namespaces)
		c.byObject[reflect.TypeOf(obj)] = scope
	}
}

// normalizeNamespaces drops duplicates, and returns nil when namespaces
// is empty or holds metav1.NamespaceAll (every namespace).
func normalizeNamespaces(namespaces []string) []string {
	var out []string
	seen := make(map[string]bool, len(namespaces))
	for _, ns := range namespaces {
		if ns == metav1.NamespaceAll {
			return nil
		}
		if !seen[ns] {
			seen[ns] = true
			out = append(out, ns)
		}
	}
	return out
}

// tweakFor returns the list-options tweak of type t: the factory's, then
// the type's selectors.
func (c *config) tweakFor(t reflect.Type) func(*metav1.ListOptions) {
	scope := c.byObject[t]
	if scope.LabelSelector == "" && scope.FieldSelector == "" {
		return c.tweak
	}
	factoryTweak := c.tweak
	return func(opts *metav1.ListOptions) {
		if factoryTweak != nil {
			factoryTweak(opts)
		}
		opts.LabelSelector = andSelectors(opts.LabelSelector, scope.LabelSelector)
		opts.FieldSelector = andSelectors(opts.FieldSelector, scope.FieldSelector)
	}
}

// andSelectors joins two label or field selectors so that both must match.
func andSelectors(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "," + b
}

// resyncFor returns the resync period of type t.
func (c *config) resyncFor(t reflect.Type) time.Duration {
	if p := c.byObject[t].ResyncPeriod; p != 0 {
		return p
	}
	if p, ok := c.resyncByType[t]; ok {
		return p
	}
	return c.defaultResync
}

// namespacesFor returns the namespaces the informer of namespaced type t
// watches; nil means every namespace.
func (c *config) namespacesFor(t reflect.Type) []string {
	if scope, ok := c.byObject[t]; ok && len(scope.Namespaces) > 0 {
		return scope.Namespaces
	}
	return c.namespaces
}
