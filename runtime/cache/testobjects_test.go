package cache

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// testObject returns a small namespaced object with the given identity, the
// shape the store and reflector tests and benchmarks use.
func testObject(namespace, name, resourceVersion string) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{
			Namespace:       namespace,
			Name:            name,
			ResourceVersion: resourceVersion,
		},
	}
}

// testObjectWithLabels is testObject with labels.
func testObjectWithLabels(namespace, name, resourceVersion string, labels map[string]string) *metav1.PartialObjectMetadata {
	o := testObject(namespace, name, resourceVersion)
	o.Labels = labels
	return o
}

// otherObject is a runtime.Object of a type the reflector tests do not
// expect.
type otherObject struct {
	metav1.TypeMeta
	metav1.ObjectMeta
}

func (o *otherObject) DeepCopyObject() runtime.Object {
	c := *o
	o.ObjectMeta.DeepCopyInto(&c.ObjectMeta)
	return &c
}
