package cache

import "k8s.io/apimachinery/pkg/api/meta"

// objectHasKey reports whether MetaNamespaceKeyFunc (or, for tombstones,
// DeletionHandlingMetaNamespaceKeyFunc) files obj under key, without
// building the key. Listeners confirm with it that a coalesced change is
// of the key looked up (delivery.ListenerConfig.HasKey).
func objectHasKey(obj any, key string) bool {
	switch o := obj.(type) {
	case DeletedFinalStateUnknown:
		return o.Key == key
	case ExplicitKey:
		return string(o) == key
	case string:
		return o == key
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return false
	}
	return isMetaNamespaceKey(key, m.GetNamespace(), m.GetName())
}
