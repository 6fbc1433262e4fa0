package cache

import "reflect"

// clientGoTestingPackage is the package of client-go's fake machinery:
// testing.Fake, which every fake clientset embeds, and
// testing.ObjectTracker, which serves their objects.
const clientGoTestingPackage = "k8s.io/client-go/testing"

// isClientGoFake reports whether client is built on client-go's fake
// machinery: it has the Invokes method of an embedded testing.Fake, or a
// Tracker method returning a testing.ObjectTracker (every fake clientset
// client-gen generated has both; client-go's fake metadata and dynamic
// clients the first). Their watches do not stream lists, whatever the
// client-go version. The check uses reflection once per informer, when it
// is made, so that this package need not import client-go.
func isClientGoFake(client any) bool {
	t := reflect.TypeOf(client)
	if t == nil {
		return false
	}
	// The method's type from a reflect.Type has the receiver as its first
	// parameter.
	if m, ok := t.MethodByName("Invokes"); ok && m.Type.NumIn() > 1 && inPackage(m.Type.In(1), clientGoTestingPackage) {
		return true
	}
	if m, ok := t.MethodByName("Tracker"); ok && m.Type.NumOut() == 1 && inPackage(m.Type.Out(0), clientGoTestingPackage) {
		return true
	}
	return false
}

// inPackage reports whether t, or what it points to, is a type declared
// in package path.
func inPackage(t reflect.Type, path string) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.PkgPath() == path
}
