package cache

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// ObjectName is the namespace and name of an object: the structured form
// of the key MetaNamespaceKeyFunc computes. Namespace is empty for
// cluster-scoped objects. It is a comparable value, usable as a map key and
// as a workqueue item, and safe to share between goroutines.
type ObjectName struct {
	Namespace string
	Name      string
}

// NewObjectName returns the ObjectName of namespace and name.
func NewObjectName(namespace, name string) ObjectName {
	return ObjectName{Namespace: namespace, Name: name}
}

// Parts returns the namespace and name.
func (n ObjectName) Parts() (namespace, name string) { return n.Namespace, n.Name }

// String returns the store key: "namespace/name", or "name" when the
// namespace is empty.
func (n ObjectName) String() string {
	return metaNamespaceKey(n.Namespace, n.Name)
}

// AsNamespacedName converts n to a types.NamespacedName.
func (n ObjectName) AsNamespacedName() types.NamespacedName {
	return types.NamespacedName{Namespace: n.Namespace, Name: n.Name}
}

// ParseObjectName parses a store key (see String); it fails on a key with
// more than one "/".
func ParseObjectName(key string) (ObjectName, error) {
	ns, name, err := SplitMetaNamespaceKey(key)
	return ObjectName{Namespace: ns, Name: name}, err
}

// NamespacedNameAsObjectName converts a types.NamespacedName.
func NamespacedNameAsObjectName(nn types.NamespacedName) ObjectName {
	return ObjectName{Namespace: nn.Namespace, Name: nn.Name}
}

// ObjectToName returns the ObjectName of an API object; it fails on values
// without object metadata.
func ObjectToName(obj any) (ObjectName, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return ObjectName{}, fmt.Errorf("object has no meta: %w", err)
	}
	return MetaObjectToName(m), nil
}

// MetaObjectToName returns the ObjectName of obj.
func MetaObjectToName(obj metav1.Object) ObjectName {
	return ObjectName{Namespace: obj.GetNamespace(), Name: obj.GetName()}
}

// DeletionHandlingObjectToName is ObjectToName that also accepts the
// DeletedFinalStateUnknown tombstones OnDelete may receive, returning the
// name their Key encodes.
func DeletionHandlingObjectToName(obj any) (ObjectName, error) {
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return ParseObjectName(d.Key)
	}
	return ObjectToName(obj)
}
