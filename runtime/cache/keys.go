package cache

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/store"
)

// KeyFunc returns the key under which a Store files obj.
type KeyFunc = store.KeyFunc

// ExplicitKey is a key passed where an object is expected; KeyFuncs in this
// package return it unchanged.
type ExplicitKey string

// MetaNamespaceKeyFunc returns "namespace/name" for namespaced objects and
// "name" for cluster-scoped ones. An ExplicitKey passes through; anything
// else without object metadata, a plain string included, is an error, as
// in client-go.
func MetaNamespaceKeyFunc(obj any) (string, error) {
	if key, ok := obj.(ExplicitKey); ok {
		return string(key), nil
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", fmt.Errorf("object has no meta: %w", err)
	}
	return metaNamespaceKey(m.GetNamespace(), m.GetName()), nil
}

// metaNamespaceKey is the store key of an object: "namespace/name", or
// "name" for a cluster-scoped object. It is the one place that builds the
// format (MetaNamespaceKeyFunc, ObjectName.String and the listers use it);
// SplitMetaNamespaceKey parses it and isMetaNamespaceKey matches it. Safe
// for concurrent use.
func metaNamespaceKey(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

// isMetaNamespaceKey reports whether key is metaNamespaceKey(namespace,
// name), without building it.
func isMetaNamespaceKey(key, namespace, name string) bool {
	if namespace == "" {
		return key == name
	}
	return len(key) == len(namespace)+1+len(name) && key[len(namespace)] == '/' &&
		key[:len(namespace)] == namespace && key[len(namespace)+1:] == name
}

// DeletionHandlingMetaNamespaceKeyFunc is MetaNamespaceKeyFunc that also
// accepts DeletedFinalStateUnknown tombstones, returning their Key.
func DeletionHandlingMetaNamespaceKeyFunc(obj any) (string, error) {
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	return MetaNamespaceKeyFunc(obj)
}

// SplitMetaNamespaceKey splits a key made by MetaNamespaceKeyFunc into its
// namespace (empty for cluster-scoped objects) and name. It fails on a key
// with more than one "/".
func SplitMetaNamespaceKey(key string) (namespace, name string, err error) {
	namespace, name, namespaced := strings.Cut(key, "/")
	switch {
	case !namespaced:
		return "", key, nil
	case !strings.Contains(name, "/"):
		return namespace, name, nil
	}
	return "", "", fmt.Errorf("unexpected key format: %q", key)
}
