package factory

import (
	"reflect"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

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
	return func(c *config) {
		c.namespaces = nil
		seen := make(map[string]bool, len(namespaces))
		for _, ns := range namespaces {
			if ns == metav1.NamespaceAll {
				c.namespaces = nil
				return
			}
			if !seen[ns] {
				seen[ns] = true
				c.namespaces = append(c.namespaces, ns)
			}
		}
	}
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
func WithTransform(transform cache.TransformFunc) Option {
	return func(c *config) { c.transform = transform }
}
